import { Text } from 'ink';
import { createElement as h, type ReactNode } from 'react';
import { useAnswerOnce } from './fresh-state.js';
import { useKeys } from './key-router.js';
import { tint } from './text-style.js';

export interface ConfirmPromptProps {
  readonly question: string;
  readonly color: boolean;
  /** What enter says: yes unless the question undoes something (a cancel), where a stray enter must not. */
  readonly enterSays?: boolean;
  onAnswer(yes: boolean): void;
}

/** A yes/no question: y says yes; n or esc says no; enter says `enterSays` (yes by default). */
export function ConfirmPrompt({ question, color, enterSays = true, onAnswer }: ConfirmPromptProps): ReactNode {
  const once = useAnswerOnce();
  useKeys((input, key) => {
    if (input === 'y' || input === 'Y' || (key.return && enterSays)) once(() => onAnswer(true));
    else if (input === 'n' || input === 'N' || key.escape || key.return) once(() => onAnswer(false));
  });
  return h(Text, null, h(Text, tint(color, { bold: true }), question), enterSays ? ' [Y/n]' : ' [y/N]');
}
