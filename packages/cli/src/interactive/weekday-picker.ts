import type { PatternWeekday } from '@schedule/core';
import { Box, Text } from 'ink';
import { createElement as h, type ReactNode, useState } from 'react';
import { useAnswerOnce, useFreshState } from './fresh-state.js';
import { useKeys } from './key-router.js';
import { HINT, tint } from './text-style.js';

/** Monday first, as series weeks run. */
export const WEEKDAYS: readonly PatternWeekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

export interface WeekdayPickerProps {
  readonly title: string;
  readonly initial: readonly PatternWeekday[];
  readonly color: boolean;
  onSubmit(days: PatternWeekday[]): void;
  onCancel(): void;
}

/** Several weekdays: ←/→ move, space toggles, enter accepts (at least one), esc quits. */
export function WeekdayPicker({ title, initial, color, onSubmit, onCancel }: WeekdayPickerProps): ReactNode {
  const [index, readIndex, setIndex] = useFreshState(() => 0);
  const [chosen, readChosen, setChosen] = useFreshState<ReadonlySet<PatternWeekday>>(() => new Set(initial));
  const [problem, setProblem] = useState<string | undefined>();
  const once = useAnswerOnce();
  useKeys((input, key) => {
    if (key.escape || input === 'q') return once(onCancel);
    if (key.leftArrow) return setIndex(Math.max(0, readIndex() - 1));
    if (key.rightArrow) return setIndex(Math.min(WEEKDAYS.length - 1, readIndex() + 1));
    if (input === ' ') {
      const day = WEEKDAYS[readIndex()]!;
      const next = new Set(readChosen());
      if (!next.delete(day)) next.add(day);
      return setChosen(next);
    }
    if (key.return) {
      const days = WEEKDAYS.filter((d) => readChosen().has(d));
      if (days.length === 0) return setProblem('Choose at least one day (space).');
      once(() => onSubmit(days));
    }
  });
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, tint(color, { bold: true }), title),
    h(
      Text,
      null,
      ...WEEKDAYS.map((day, i) => {
        const mark = chosen.has(day) ? 'x' : ' ';
        const here = i === index;
        return h(Text, { key: day, ...tint(color, here ? { inverse: true } : {}) }, `${here ? '›' : ' '}[${mark}] ${day} `);
      }),
    ),
    problem ? h(Text, tint(color, { color: 'red' }), problem) : null,
    h(Text, tint(color, HINT), '←/→ move  space toggle  enter accept  esc quit'),
  );
}
