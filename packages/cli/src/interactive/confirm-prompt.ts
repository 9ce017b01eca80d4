import { Text } from 'ink';
import { createElement as h, type ReactNode } from 'react';
import { useAnswerOnce } from './fresh-state.js';
import { useKeys } from './key-router.js';
import { tint } from './text-style.js';

export interface ConfirmPromptProps {
  readonly question: string;
  readonly color: boolean;
  onAnswer(yes: boolean): void;
}

/** A yes/no question: y or enter says yes; n or esc says no. */
export function ConfirmPrompt({ question, color, onAnswer }: ConfirmPromptProps): ReactNode {
  const once = useAnswerOnce();
  useKeys((input, key) => {
    if (input === 'y' || input === 'Y' || key.return) once(() => onAnswer(true));
    else if (input === 'n' || input === 'N' || key.escape) once(() => onAnswer(false));
  });
  return h(Text, null, h(Text, tint(color, { bold: true }), question), ' [Y/n]');
}
