import type { TextProps } from 'ink';

/** Text props that only apply when colour is wanted (--no-color, NO_COLOR): layout never depends on them. */
export function tint(color: boolean, props: TextProps): TextProps {
  return color ? props : {};
}

/** Key hints shown under a prompt. */
export const HINT: TextProps = { dimColor: true };
