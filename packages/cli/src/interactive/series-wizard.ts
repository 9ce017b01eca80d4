import type { Pattern, PatternWeekday } from '@schedule/core';

type PatternFrequency = Pattern['frequency'];

import { Box, Text } from 'ink';
import { createElement as h, type ReactNode, useCallback, useEffect, useState } from 'react';
import { skipCauseText } from '../output/skip-causes.js';
import { dayHeading, localDate, localTime } from '../output/zone-time.js';
import { countProblem, dateProblem, emailProblem, timeProblem } from './answer-checks.js';
import { type EventTypeItem, eventTypeHint, type PersonItem } from './api-items.js';
import { ConfirmPrompt } from './confirm-prompt.js';
import { SelectList } from './select-list.js';
import { SeriesPreview, type SeriesPreviewData } from './series-preview.js';
import { Spinner } from './spinner.js';
import { TextPrompt } from './text-prompt.js';
import { HINT, tint } from './text-style.js';
import { WeekdayPicker } from './weekday-picker.js';

/** The body of `create_series` the wizard builds (docs/api/endpoints.md "POST /v1/series"). */
export interface SeriesRequest {
  readonly host_user_id: string;
  readonly event_type_id: string;
  readonly attendee: { readonly email: string };
  readonly frequency: PatternFrequency;
  readonly weekdays?: readonly PatternWeekday[];
  readonly time: string;
  readonly timezone: string;
  readonly starts_on: string;
  readonly count: number;
}

/** `create_series`'s answer, as far as the result view reads it. */
export interface SeriesCreated {
  readonly series: { readonly uid: string };
  readonly occurrences: readonly { readonly uid: string; readonly start_at: string }[];
  readonly skipped: readonly { readonly date: string; readonly start_at: string; readonly cause: string }[];
}

/** What the wizard needs from a backend, so it tests without one. */
export interface SeriesWizardApi {
  eventTypes(): Promise<readonly EventTypeItem[]>;
  people(): Promise<readonly PersonItem[]>;
  /** `preview_series`: the create's dry run; no date free is an answer with no occurrences, not a failure. */
  preview(request: SeriesRequest): Promise<SeriesPreviewData>;
  create(request: SeriesRequest): Promise<SeriesCreated>;
}

export type WizardOutcome =
  | { readonly kind: 'created'; readonly result: SeriesCreated }
  | { readonly kind: 'canceled' }
  /** The preview found no date free, so nothing was offered to create. */
  | { readonly kind: 'nothing_free'; readonly preview: SeriesPreviewData }
  | { readonly kind: 'failed'; readonly error: unknown };

export interface SeriesWizardProps {
  readonly api: SeriesWizardApi;
  readonly nowMs: number;
  readonly color: boolean;
  onDone(outcome: WizardOutcome): void;
}

interface Draft {
  eventType?: EventTypeItem;
  host?: PersonItem;
  email?: string;
  frequency?: PatternFrequency;
  weekdays?: PatternWeekday[];
  time?: string;
  startsOn?: string;
  count?: number;
}

type Question = 'event-type' | 'host' | 'email' | 'frequency' | 'weekdays' | 'time' | 'starts-on' | 'count';

/** The first question the draft has no answer to; weekdays only for a weekly series. */
function nextQuestion(d: Draft): Question | undefined {
  if (!d.eventType) return 'event-type';
  if (!d.host) return 'host';
  if (d.email === undefined) return 'email';
  if (!d.frequency) return 'frequency';
  if (d.frequency === 'weekly' && !d.weekdays) return 'weekdays';
  if (d.time === undefined) return 'time';
  if (d.startsOn === undefined) return 'starts-on';
  if (d.count === undefined) return 'count';
  return undefined;
}

type Complete = Required<Omit<Draft, 'weekdays'>> & Pick<Draft, 'weekdays'>;

function requestOf(d: Complete): SeriesRequest {
  return {
    host_user_id: d.host.user_id,
    event_type_id: d.eventType.id,
    attendee: { email: d.email },
    frequency: d.frequency,
    ...(d.frequency === 'weekly' ? { weekdays: d.weekdays ?? [] } : {}),
    time: d.time,
    // The series' zone is the host's (the API's default), said out loud so the preview reads the same zone.
    timezone: d.host.timezone,
    starts_on: d.startsOn,
    count: d.count,
  };
}

type Step =
  | { readonly name: 'ask' }
  | { readonly name: 'checking' }
  | { readonly name: 'preview'; readonly preview: SeriesPreviewData }
  | { readonly name: 'creating' }
  | { readonly name: 'done'; readonly outcome: WizardOutcome };

/** `schedule series create` by hand: questions, a preview of the dates, a confirmation, the result. */
export function SeriesWizard({ api, nowMs, color, onDone }: SeriesWizardProps): ReactNode {
  const [lists, setLists] = useState<{ eventTypes: readonly EventTypeItem[]; people: readonly PersonItem[] } | undefined>();
  const [draft, setDraft] = useState<Draft>({});
  const [step, setStep] = useState<Step>({ name: 'ask' });
  const finish = useCallback((outcome: WizardOutcome) => setStep({ name: 'done', outcome }), []);
  const answer = (more: Draft) => setDraft((d) => ({ ...d, ...more }));
  const question = nextQuestion(draft);
  const complete = question === undefined ? (draft as Complete) : undefined;

  useEffect(() => {
    Promise.all([api.eventTypes(), api.people()]).then(
      ([eventTypes, people]) => setLists({ eventTypes: eventTypes.filter((e) => e.status === 'on' && e.recurring === 'on'), people }),
      (error: unknown) => finish({ kind: 'failed', error }),
    );
  }, [api, finish]);

  // Every answer given: the server's dry run of the create says which dates it would book and skip, and why.
  useEffect(() => {
    if (!complete || step.name !== 'ask') return;
    setStep({ name: 'checking' });
    api.preview(requestOf(complete)).then(
      (preview) => (preview.occurrences.length === 0 ? finish({ kind: 'nothing_free', preview }) : setStep({ name: 'preview', preview })),
      (error: unknown) => finish({ kind: 'failed', error }),
    );
  }, [api, complete, step.name, finish]);

  useEffect(() => {
    if (step.name !== 'creating' || !complete) return;
    api.create(requestOf(complete)).then(
      (result) => finish({ kind: 'created', result }),
      (error: unknown) => finish({ kind: 'failed', error }),
    );
  }, [api, complete, step.name, finish]);

  useEffect(() => {
    if (step.name === 'done') onDone(step.outcome);
  }, [step, onDone]);

  const cancel = () => finish({ kind: 'canceled' });
  switch (step.name) {
    case 'ask':
      if (!lists) return h(Spinner, { label: 'Loading event types and people…' });
      return question ? h(Ask, { question, draft, lists, nowMs, color, answer, cancel }) : null;
    case 'checking':
      return h(Spinner, { label: `Checking ${complete?.count ?? 0} dates…` });
    case 'preview':
      return h(
        Box,
        { flexDirection: 'column' },
        h(SeriesPreview, { preview: step.preview, color }),
        h(ConfirmPrompt, {
          question: 'Create this series?',
          color,
          onAnswer: (yes) => (yes ? setStep({ name: 'creating' }) : cancel()),
        }),
      );
    case 'creating':
      return h(Spinner, { label: `Creating the series and booking up to ${complete?.count ?? 0} meetings…` });
    case 'done':
      switch (step.outcome.kind) {
        case 'created':
          return h(Created, { result: step.outcome.result, zone: complete?.host.timezone ?? 'UTC', color });
        // The dates stay on the screen, each with why it is not free.
        case 'nothing_free':
          return h(SeriesPreview, { preview: step.outcome.preview, color });
        case 'canceled':
        case 'failed':
          return null;
      }
  }
}

interface AskProps {
  readonly question: Question;
  readonly draft: Draft;
  readonly lists: { eventTypes: readonly EventTypeItem[]; people: readonly PersonItem[] };
  readonly nowMs: number;
  readonly color: boolean;
  answer(more: Draft): void;
  cancel(): void;
}

/** One question of the wizard; `key` remounts the prompt per question, so no answer leaks into the next. */
function Ask({ question, draft, lists, nowMs, color, answer, cancel }: AskProps): ReactNode {
  const common = { key: question, color, onCancel: cancel };
  switch (question) {
    case 'event-type':
      return h(SelectList<EventTypeItem>, {
        ...common,
        title: 'Which event type? (those that allow series)',
        choices: lists.eventTypes.map((e) => ({ label: e.name, hint: eventTypeHint(e), value: e })),
        onSelect: (eventType) => answer({ eventType }),
      });
    case 'host':
      return h(SelectList<PersonItem>, {
        ...common,
        title: 'Whose calendar?',
        choices: lists.people.map((p) => ({ label: p.name, hint: `${p.username} · ${p.timezone}`, value: p })),
        initialIndex: lists.people.findIndex((p) => p.user_id === draft.eventType?.owner.user_id),
        onSelect: (host) => answer({ host }),
      });
    case 'email':
      return h(TextPrompt, { ...common, label: 'Attendee email:', validate: emailProblem, onSubmit: (email) => answer({ email }) });
    case 'frequency':
      return h(SelectList<PatternFrequency>, {
        ...common,
        title: 'How often?',
        choices: [
          { label: 'weekly', hint: 'on the weekdays you choose', value: 'weekly' },
          { label: 'monthly_same_day', hint: 'on the start date’s day of the month', value: 'monthly_same_day' },
        ],
        onSelect: (frequency) => answer({ frequency }),
      });
    case 'weekdays':
      return h(WeekdayPicker, { ...common, title: 'On which days?', initial: ['mon'], onSubmit: (weekdays) => answer({ weekdays }) });
    case 'time':
      return h(TextPrompt, {
        ...common,
        label: `At what time (${draft.host?.timezone})?`,
        initial: '10:00',
        validate: timeProblem,
        onSubmit: (time) => answer({ time }),
      });
    case 'starts-on':
      return h(TextPrompt, {
        ...common,
        label: 'Starting on (YYYY-MM-DD)?',
        initial: localDate(nowMs, draft.host?.timezone ?? 'UTC'),
        validate: dateProblem,
        onSubmit: (startsOn) => answer({ startsOn }),
      });
    case 'count':
      return h(TextPrompt, {
        ...common,
        label: 'How many meetings (1–42)?',
        initial: '6',
        validate: countProblem,
        onSubmit: (count) => answer({ count: Number(count) }),
      });
  }
}

function Created({ result, zone, color }: { result: SeriesCreated; zone: string; color: boolean }): ReactNode {
  // Booked and skipped dates in one list, in date order, as the preview showed them.
  const lines = [
    ...result.occurrences.map((o) => ({ key: o.uid, at: o.start_at, booked: true, cause: '' })),
    ...result.skipped.map((s) => ({ key: `skipped ${s.start_at}`, at: s.start_at, booked: false, cause: s.cause })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, tint(color, { color: 'green', bold: true }), `Created series ${result.series.uid}`),
    h(Text, null, `${result.occurrences.length} booked, ${result.skipped.length} skipped (${zone})`),
    ...lines.map((l) => {
      const when = `${dayHeading(localDate(l.at, zone))} ${localTime(l.at, zone)}`;
      return l.booked
        ? h(Text, { key: l.key }, `  ✓ ${when}`)
        : h(Text, { key: l.key, ...tint(color, HINT) }, `  ✗ ${when}  skipped: ${skipCauseText(l.cause)}`);
    }),
  );
}
