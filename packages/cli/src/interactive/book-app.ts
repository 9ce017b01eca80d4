import { Box, Text, useStdout } from 'ink';
import { createElement as h, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { addDays, instantText, rangeText } from '../output/zone-time.js';
import { emailProblem } from './answer-checks.js';
import { type BookingItem, type EventTypeItem, eventTypeHint } from './api-items.js';
import { ConfirmPrompt } from './confirm-prompt.js';
import { QuestionPrompt } from './question-prompt.js';
import { SelectList } from './select-list.js';
import { SlotGrid } from './slot-grid.js';
import type { Slot } from './slot-grid-model.js';
import { Spinner } from './spinner.js';
import { TextPrompt } from './text-prompt.js';
import { tint } from './text-style.js';
import { type Week, weekOfInstant, weekStarting } from './week.js';

/** What `schedule book` needs from a backend: three calls, so the flow tests without one. */
export interface BookApi {
  eventTypes(): Promise<readonly EventTypeItem[]>;
  slots(eventType: EventTypeItem, week: Week): Promise<readonly Slot[]>;
  book(input: Booking): Promise<BookingItem>;
}

/** What the flow books: the slot, the attendee, and the form's answers keyed by question id. */
export interface Booking {
  readonly eventType: EventTypeItem;
  readonly start: string;
  readonly email: string;
  readonly name?: string;
  readonly responses: Readonly<Record<string, unknown>>;
}

/** How the flow ended. */
export type BookOutcome =
  | { readonly kind: 'booked'; readonly booking: BookingItem }
  | { readonly kind: 'canceled' }
  | { readonly kind: 'failed'; readonly error: unknown };

export interface BookAppProps {
  readonly api: BookApi;
  /** The viewer's zone: weeks, days and times are read in it. */
  readonly zone: string;
  readonly nowMs: number;
  readonly color: boolean;
  onDone(outcome: BookOutcome): void;
}

/** How many weeks ahead the first view looks for one with free times. */
const SEEK_WEEKS = 8;

/** The attendee and answers gathered so far. */
interface Draft {
  readonly eventType: EventTypeItem;
  readonly slot: Slot;
  readonly email: string;
  readonly name?: string;
  readonly responses: Readonly<Record<string, unknown>>;
}

type Step =
  | { readonly name: 'event-type' }
  | { readonly name: 'slot'; readonly eventType: EventTypeItem }
  | { readonly name: 'email'; readonly eventType: EventTypeItem; readonly slot: Slot }
  | { readonly name: 'attendee-name'; readonly draft: Draft }
  /** Asking question `index` of the event type's form. */
  | { readonly name: 'question'; readonly draft: Draft; readonly index: number }
  | { readonly name: 'confirm'; readonly draft: Draft }
  | { readonly name: 'booking'; readonly draft: Draft }
  | { readonly name: 'done'; readonly outcome: BookOutcome };

/** After the attendee: the form's first question, or the confirmation when the form has none left. */
function afterAnswer(draft: Draft, index: number): Step {
  return index < (draft.eventType.questions?.length ?? 0) ? { name: 'question', draft, index } : { name: 'confirm', draft };
}

/**
 * `schedule book`: an event type, a week of free slots, the attendee's email
 * and name, each question of the event type's form, a confirmation, the result.
 */
export function BookApp({ api, zone, nowMs, color, onDone }: BookAppProps): ReactNode {
  const [step, setStep] = useState<Step>({ name: 'event-type' });
  const [eventTypes, setEventTypes] = useState<readonly EventTypeItem[] | undefined>();
  const [thisWeek] = useState(() => weekOfInstant(nowMs, zone));
  const [week, setWeek] = useState<Week>(thisWeek);
  const seeking = useRef(true);
  const [slots, setSlots] = useState<{ key: string; slots: readonly Slot[] } | undefined>();
  const { stdout } = useStdout();
  const finish = useCallback((outcome: BookOutcome) => setStep({ name: 'done', outcome }), []);

  useEffect(() => {
    api.eventTypes().then(
      (items) => setEventTypes(items.filter((e) => e.status === 'on')),
      (error: unknown) => finish({ kind: 'failed', error }),
    );
  }, [api, finish]);

  const eventType = step.name === 'slot' ? step.eventType : undefined;
  const slotsKey = eventType ? `${eventType.id} ${week.monday}` : undefined;
  useEffect(() => {
    if (!eventType || !slotsKey) return;
    let current = true;
    api.slots(eventType, week).then(
      (found) => {
        if (!current) return;
        // Until a week is chosen by hand, an empty week gives way to the next (this one may be nearly over).
        if (seeking.current && found.length === 0 && week.monday < addDays(thisWeek.monday, 7 * SEEK_WEEKS)) {
          return setWeek(weekStarting(addDays(week.monday, 7), zone));
        }
        seeking.current = false;
        setSlots({ key: slotsKey, slots: found });
      },
      (error: unknown) => current && finish({ kind: 'failed', error }),
    );
    return () => {
      current = false;
    };
  }, [api, eventType, week, slotsKey, finish, thisWeek, zone]);

  useEffect(() => {
    if (step.name !== 'booking') return;
    const { eventType, slot, email, name, responses } = step.draft;
    api.book({ eventType, start: slot.start, email, ...(name ? { name } : {}), responses }).then(
      (booking) => finish({ kind: 'booked', booking }),
      (error: unknown) => finish({ kind: 'failed', error }),
    );
  }, [api, step, finish]);

  // Reported after the final frame is committed, so it stays on screen.
  useEffect(() => {
    if (step.name === 'done') onDone(step.outcome);
  }, [step, onDone]);

  const cancel = () => finish({ kind: 'canceled' });
  switch (step.name) {
    case 'event-type':
      if (!eventTypes) return h(Spinner, { label: 'Loading event types…' });
      return h(SelectList<EventTypeItem>, {
        title: 'Book which event type?',
        choices: eventTypes.map((e) => ({ label: e.name, hint: eventTypeHint(e), value: e })),
        color,
        onSelect: (chosen) => setStep({ name: 'slot', eventType: chosen }),
        onCancel: cancel,
      });
    case 'slot':
      return h(
        Box,
        { flexDirection: 'column' },
        h(Text, null, h(Text, tint(color, { bold: true }), step.eventType.name), `  ${eventTypeHint(step.eventType)}`),
        h(SlotGrid, {
          days: week.days,
          slots: slots?.key === slotsKey ? slots?.slots : undefined,
          zone,
          color,
          canGoBack: week.monday > thisWeek.monday,
          // The frame around the rows takes about eight lines; ink redraws badly once a frame outgrows the screen.
          maxRows: stdout.rows ? Math.max(3, stdout.rows - 8) : undefined,
          onPick: (slot) => setStep({ name: 'email', eventType: step.eventType, slot }),
          onWeek: (delta) => {
            seeking.current = false;
            setWeek(weekStarting(addDays(week.monday, 7 * delta), zone));
          },
          onCancel: cancel,
        }),
      );
    case 'email':
      return h(
        Box,
        { flexDirection: 'column' },
        h(Text, null, `${step.eventType.name}, ${instantText(step.slot.start, zone)}`),
        h(TextPrompt, {
          label: 'Attendee email:',
          color,
          validate: emailProblem,
          onSubmit: (email) =>
            setStep({ name: 'attendee-name', draft: { eventType: step.eventType, slot: step.slot, email, responses: {} } }),
          onCancel: cancel,
        }),
      );
    case 'attendee-name':
      return h(TextPrompt, {
        label: 'Attendee name (optional):',
        color,
        onSubmit: (name) => setStep(afterAnswer({ ...step.draft, ...(name ? { name } : {}) }, 0)),
        onCancel: cancel,
      });
    case 'question': {
      const question = step.draft.eventType.questions![step.index]!;
      return h(QuestionPrompt, {
        // A new prompt per question: each starts empty.
        key: question.id,
        question,
        color,
        onAnswer: (answer) => {
          const responses = answer === undefined ? step.draft.responses : { ...step.draft.responses, [question.id]: answer };
          setStep(afterAnswer({ ...step.draft, responses }, step.index + 1));
        },
        onCancel: cancel,
      });
    }
    case 'confirm': {
      const { eventType, slot, email, name } = step.draft;
      return h(ConfirmPrompt, {
        question: `Book ${eventType.name} with ${name ? `${name} <${email}>` : email} on ${instantText(slot.start, zone)}?`,
        color,
        onAnswer: (yes) => setStep(yes ? { name: 'booking', draft: step.draft } : { name: 'slot', eventType }),
      });
    }
    case 'booking':
      return h(Spinner, { label: 'Booking…' });
    case 'done':
      return h(Outcome, { outcome: step.outcome, zone, color });
  }
}

function Outcome({ outcome, zone, color }: { outcome: BookOutcome; zone: string; color: boolean }): ReactNode {
  if (outcome.kind !== 'booked') return null;
  const { booking } = outcome;
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, tint(color, { color: 'green', bold: true }), `Booked ${booking.uid}`),
    h(Text, null, booking.title),
    h(Text, null, rangeText(booking.start_at, booking.end_at, zone)),
  );
}
