import { type Key, useInput } from 'ink';
import { createContext, createElement as h, type ReactNode, type RefObject, useContext, useLayoutEffect, useRef } from 'react';

// Why a router: ink's useInput subscribes in a passive effect, which runs a
// moment after a new prompt is drawn. A key typed ahead (a paste, a quick
// enter, a script on a terminal) in that moment reached no prompt and was
// lost. The router listens once for the whole app; each prompt takes the
// keys in a layout effect, which runs in the same commit that draws it.
// ink also hands over several plain keys read at once (" \r") as one
// string, which no prompt would read as a space and an enter: the router
// passes them on one at a time.

type Handler = (input: string, key: Key) => void;

const Route = createContext<RefObject<Handler | undefined> | undefined>(undefined);

const PLAIN: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/** The key one character of a run stands for, as ink would report it alone. */
export function keyOf(char: string): Key {
  return {
    ...PLAIN,
    return: char === '\r' || char === '\n',
    tab: char === '\t',
    backspace: char === '\b',
    delete: char === '\u007f',
    shift: /^[A-Z]$/.test(char),
  };
}

/** Passes every key to the prompt drawn last. */
export function KeyRouter({ children }: { children: ReactNode }): ReactNode {
  const current = useRef<Handler | undefined>(undefined);
  useInput((input, key) => {
    const chars = [...input];
    if (chars.length <= 1 || key.ctrl || key.meta) return current.current?.(input, key);
    for (const char of chars) current.current?.(char, keyOf(char));
  });
  return h(Route.Provider, { value: current }, children);
}

/** A prompt's keys: through the app's router, or straight from ink when drawn alone. */
export function useKeys(handler: Handler): void {
  const route = useContext(Route);
  useInput(handler, { isActive: route === undefined });
  // No dependency list: the latest handler (and its closure) takes the next key.
  useLayoutEffect(() => {
    if (!route) return;
    route.current = handler;
    return () => {
      if (route.current === handler) route.current = undefined;
    };
  });
}
