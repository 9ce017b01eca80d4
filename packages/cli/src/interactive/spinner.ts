import { render, Text } from 'ink';
import { createElement as h, type ReactNode, useEffect, useState } from 'react';

// A spinner of our own: ten braille frames are not worth a dependency.

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const;
const FRAME_MS = 80;
const CURSOR_UP = '\u001b[1A';

export interface SpinnerProps {
  readonly label: string;
  /** Drawn nothing once done, so that unmounting leaves no line behind. */
  readonly done?: boolean;
}

/** A spinning frame and what is being waited for. */
export function Spinner({ label, done = false }: SpinnerProps): ReactNode {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    if (done) return;
    const timer = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), FRAME_MS);
    return () => clearInterval(timer);
  }, [done]);
  if (done) return null;
  return h(Text, null, h(Text, { color: 'cyan' }, FRAMES[frame]), ` ${label}`);
}

/** Draws a spinner on `stream` (stderr) until the returned function is called, which erases it. */
export function showSpinner(label: string, stream: NodeJS.WriteStream = process.stderr): () => void {
  const instance = render(h(Spinner, { label }), { stdout: stream, stderr: stream, patchConsole: false, exitOnCtrlC: false });
  return () => {
    instance.rerender(h(Spinner, { label, done: true }));
    instance.unmount();
    // ink ends every frame with a newline, so even the empty last frame leaves
    // one blank line; step back onto it so what follows takes its place.
    stream.write(CURSOR_UP);
  };
}
