import { answerProblem, type Question } from '@schedule/core';
import { createElement as h, type ReactNode } from 'react';
import { ConfirmPrompt } from './confirm-prompt.js';
import { SelectList } from './select-list.js';
import { TextPrompt } from './text-prompt.js';

export interface QuestionPromptProps {
  readonly question: Question;
  readonly color: boolean;
  /** The answer as `responses` takes it; undefined for an optional question left blank. */
  onAnswer(answer: unknown): void;
  onCancel(): void;
}

/** The typed text as the answer its question takes (before core's check of it). */
function answerOf(question: Question, text: string): unknown {
  if (text === '') return undefined;
  switch (question.type) {
    case 'number':
      return Number(text);
    case 'multi_select':
      return text
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '');
    default:
      return text;
  }
}

/**
 * One booking-form question, asked the way its type wants: a list for a
 * select, yes/no for a boolean, a line of text otherwise. A required question
 * cannot be left blank, and an answer is checked with core's own rule before
 * it is sent, so the booking is not refused after the user confirmed.
 */
export function QuestionPrompt({ question, color, onAnswer, onCancel }: QuestionPromptProps): ReactNode {
  const label = `${question.label}${question.required ? '' : ' (optional)'}`;
  if (question.type === 'boolean') {
    return h(ConfirmPrompt, { question: `${label}?`, color, onAnswer });
  }
  if (question.type === 'select') {
    const choices = (question.options ?? []).map((option) => ({ label: option, value: option as string | undefined }));
    return h(SelectList<string | undefined>, {
      title: label,
      choices: question.required ? choices : [...choices, { label: '(no answer)', value: undefined }],
      color,
      onSelect: onAnswer,
      onCancel,
    });
  }
  const hint = question.type === 'multi_select' ? ` (comma-separated: ${(question.options ?? []).join(', ')})` : '';
  return h(TextPrompt, {
    label: `${label}${hint}:`,
    color,
    validate: (text) => {
      const answer = answerOf(question, text);
      if (answer === undefined) return question.required ? 'An answer is required.' : undefined;
      const problem = answerProblem(question, answer);
      return problem === undefined ? undefined : `The answer ${problem}.`;
    },
    onSubmit: (text) => onAnswer(answerOf(question, text)),
    onCancel,
  });
}
