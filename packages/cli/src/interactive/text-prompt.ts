import { Box, Text } from 'ink';
import { createElement as h, type ReactNode, useState } from 'react';
import { useAnswerOnce, useFreshState } from './fresh-state.js';
import { useKeys } from './key-router.js';
import { HINT, tint } from './text-style.js';

export interface TextPromptProps {
  readonly label: string;
  readonly initial?: string;
  readonly color: boolean;
  /** A problem with the text (shown, and enter refused), or undefined when it will do. */
  validate?(text: string): string | undefined;
  onSubmit(text: string): void;
  onCancel(): void;
}

/** One line of text: type, backspace, enter submits, esc cancels. */
export function TextPrompt({ label, initial = '', color, validate, onSubmit, onCancel }: TextPromptProps): ReactNode {
  const [text, readText, setText] = useFreshState(() => initial);
  const [problem, setProblem] = useState<string | undefined>();
  const once = useAnswerOnce();
  const submit = (value: string) => {
    const found = validate?.(value.trim());
    setProblem(found);
    if (found === undefined) once(() => onSubmit(value.trim()));
  };
  useKeys((input, key) => {
    if (key.escape) return once(onCancel);
    if (key.return) return submit(readText());
    // Terminals send DEL (0x7f) for backspace, which ink reports as `delete`.
    if (key.backspace || key.delete) return setText(readText().slice(0, -1));
    if (key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow) return;
    // A paste arrives as one string: keep its printable characters; a line break in it submits what came before.
    const [line = '', ...rest] = input.split(/\r\n|\r|\n/);
    const typed = readText() + [...line].filter((c) => c >= ' ' && c !== '\u007f').join('');
    setText(typed);
    if (rest.length > 0) submit(typed);
  });
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, null, h(Text, tint(color, { bold: true }), `${label} `), text, h(Text, tint(color, { inverse: true }), ' ')),
    problem ? h(Text, tint(color, { color: 'red' }), problem) : null,
    h(Text, tint(color, HINT), 'enter accept  esc quit'),
  );
}
