import { Box, Text } from 'ink';
import { createElement as h, type ReactNode } from 'react';
import { useAnswerOnce, useFreshState } from './fresh-state.js';
import { useKeys } from './key-router.js';
import { HINT, tint } from './text-style.js';

export interface Choice<T> {
  readonly label: string;
  /** Shown dimmed after the label. */
  readonly hint?: string;
  readonly value: T;
}

export interface SelectListProps<T> {
  readonly title: string;
  readonly choices: readonly Choice<T>[];
  readonly color: boolean;
  readonly initialIndex?: number;
  /** How many rows are shown at once; the list scrolls past it. */
  readonly rows?: number;
  onSelect(value: T): void;
  onCancel(): void;
}

/** Pick one of a list: ↑/↓ move, enter picks, esc or q cancels. */
export function SelectList<T>({ title, choices, color, initialIndex = 0, rows = 10, onSelect, onCancel }: SelectListProps<T>): ReactNode {
  const [index, readIndex, setIndex] = useFreshState(() => Math.min(Math.max(initialIndex, 0), Math.max(choices.length - 1, 0)));
  const once = useAnswerOnce();
  useKeys((input, key) => {
    if (key.escape || input === 'q') return once(onCancel);
    if (key.upArrow) return setIndex(Math.max(0, readIndex() - 1));
    if (key.downArrow) return setIndex(Math.min(choices.length - 1, readIndex() + 1));
    const chosen = choices[readIndex()];
    if (key.return && chosen) once(() => onSelect(chosen.value));
  });
  const first = Math.min(Math.max(0, index - Math.floor(rows / 2)), Math.max(0, choices.length - rows));
  const shown = choices.slice(first, first + rows);
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, tint(color, { bold: true }), title),
    choices.length === 0 ? h(Text, null, '  (nothing to choose from)') : null,
    ...shown.map((choice, i) => {
      const selected = first + i === index;
      return h(
        Text,
        { key: String(first + i) },
        h(Text, tint(color, selected ? { color: 'cyan' } : {}), `${selected ? '›' : ' '} ${choice.label}`),
        choice.hint ? h(Text, tint(color, HINT), `  ${choice.hint}`) : null,
      );
    }),
    h(Text, tint(color, HINT), '↑/↓ move  enter choose  esc quit'),
  );
}
