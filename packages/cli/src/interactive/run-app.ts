import { render } from 'ink';
import { createElement as h, type ReactElement } from 'react';
import { KeyRouter } from './key-router.js';

/**
 * Draws an app on stdout until it reports how it ended; Ctrl-C (which ink
 * turns into an unmount) ends it as `interrupted`. The last frame stays on
 * the screen.
 */
export async function runApp<T>(app: (done: (outcome: T) => void) => ReactElement, interrupted: T): Promise<T> {
  let outcome = interrupted;
  const instance = render(
    h(
      KeyRouter,
      null,
      app((value) => {
        outcome = value;
        // After the commit that reported it, so the final frame is drawn first.
        setImmediate(() => instance.unmount());
      }),
    ),
    { patchConsole: false },
  );
  await instance.waitUntilExit();
  return outcome;
}
