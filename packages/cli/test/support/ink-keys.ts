// Keys as a terminal sends them, and waiting for ink to draw: no sleeps,
// only turns of the event loop until a frame shows what a test waits for.

export const KEY = {
  up: '\u001b[A',
  down: '\u001b[B',
  right: '\u001b[C',
  left: '\u001b[D',
  enter: '\r',
  escape: '\u001b',
  backspace: '\u007f',
  space: ' ',
} as const;

interface Drawn {
  readonly stdin: { write(data: string): void };
  lastFrame(): string | undefined;
}

/** Lets React commit and ink draw what is pending (effects, state set by input). */
export async function settle(turns = 3): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Types each key in turn, letting the app take each before the next. */
export async function press(app: Drawn, ...keys: string[]): Promise<void> {
  await settle();
  for (const key of keys) {
    app.stdin.write(key);
    await settle();
  }
}

/** Waits until the last frame satisfies `ok` (data arriving from promises), failing with the frame when it never does. */
export async function frameWhere(app: Drawn, ok: (frame: string) => boolean, turns = 500): Promise<string> {
  for (let i = 0; i < turns; i++) {
    const frame = app.lastFrame() ?? '';
    if (ok(frame)) return frame;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`no frame matched; the last was:\n${app.lastFrame()}`);
}
