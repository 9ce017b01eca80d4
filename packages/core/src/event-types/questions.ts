import { z } from 'zod';
import { ScheduleError } from '../errors.js';

/**
 * The kinds of booking-form question, and the answer each takes in
 * `responses`: text and long_text a string, number a finite number, boolean
 * true or false, select one of `options`, multi_select an array of them.
 */
export const QUESTION_TYPES = ['text', 'long_text', 'number', 'boolean', 'select', 'multi_select'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

const CHOICE_TYPES: readonly QuestionType[] = ['select', 'multi_select'];

/** One question of an event type's booking form, as a workspace declares it and the directory shows it. */
export const questionSchema = z
  .object({
    id: z.string().min(1).max(64).meta({ description: 'The key of its answer in `responses`.' }),
    label: z.string().meta({ description: 'The question as an attendee reads it.' }),
    type: z.enum(QUESTION_TYPES).default('text').meta({ description: 'What kind of answer it takes.' }),
    required: z.boolean().default(false).meta({ description: 'A booking without an answer is refused.' }),
    options: z.array(z.string().min(1)).min(1).optional().meta({ description: 'The choices of a select or multi_select question.' }),
  })
  .refine((q) => CHOICE_TYPES.includes(q.type) === (q.options !== undefined), {
    message: 'options are given exactly for select and multi_select questions',
    path: ['options'],
  });
export type Question = z.output<typeof questionSchema>;

/** Why an answer does not fit its question, or undefined when it does. */
export function answerProblem(question: Question, answer: unknown): string | undefined {
  const options = question.options ?? [];
  switch (question.type) {
    case 'text':
    case 'long_text':
      return typeof answer === 'string' ? undefined : 'must be text';
    case 'number':
      return typeof answer === 'number' && Number.isFinite(answer) ? undefined : 'must be a number';
    case 'boolean':
      return typeof answer === 'boolean' ? undefined : 'must be true or false';
    case 'select':
      return typeof answer === 'string' && options.includes(answer) ? undefined : `must be one of ${options.join(', ')}`;
    case 'multi_select':
      return Array.isArray(answer) && answer.every((a) => typeof a === 'string' && options.includes(a))
        ? undefined
        : `must be a list of ${options.join(', ')}`;
  }
}

/**
 * The questions stored with an event type. Rows written before questions had
 * a type read as text questions, as the workspace schema's default would.
 */
export function storedQuestions(json: string): Question[] {
  return (JSON.parse(json) as (Omit<Question, 'type'> & { type?: QuestionType })[]).map((q) => ({ ...q, type: q.type ?? 'text' }));
}

const isUnanswered = (answer: unknown) => answer === undefined || answer === null || answer === '';

/**
 * The answers a new booking gives must fit its event type's form: every
 * required question answered, every answer of the kind its question takes
 * (`400 validation_error` naming each `responses.<id>`). Keys that are no
 * question are kept as they are: a form may have changed since a client read it.
 */
export function checkAnswers(questions: readonly Question[], responses: Record<string, unknown> | undefined): void {
  const missing = questions.filter((q) => q.required && isUnanswered(responses?.[q.id])).map((q) => `responses.${q.id}`);
  if (missing.length > 0) {
    throw new ScheduleError('validation_error', `Required questions are unanswered: ${missing.join(', ')}.`, { fields: missing });
  }
  const misfits = questions.flatMap((q) => {
    const answer = responses?.[q.id];
    const problem = isUnanswered(answer) ? undefined : answerProblem(q, answer);
    return problem === undefined ? [] : [{ field: `responses.${q.id}`, problem }];
  });
  if (misfits.length > 0) {
    throw new ScheduleError('validation_error', misfits.map((m) => `${m.field}: ${m.problem}`).join('; '), {
      fields: misfits.map((m) => m.field),
    });
  }
}
