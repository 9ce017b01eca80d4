import { z } from 'zod';
import { MINUTE_MS } from '../time.js';

// When a booking's reminders are due, from its event type's rules
// (docs/reminders.md). Pure: the rows that carry them
// (schedule-reminders.ts), the dispatcher that sends them and the invite's
// VALARMs build on this.

/** The longest offset a rule may name: 30 days. */
export const MAX_REMINDER_OFFSET_MINUTES = 30 * 24 * 60;
/** Rules per event type at most: each is a row per booking per recipient. */
export const MAX_REMINDER_RULES = 5;
/** Text a host adds to a reminder, at most. */
export const MAX_REMINDER_TEXT = 500;

export const reminderRuleSchema = z.object({
  minutes: z
    .int()
    .min(0)
    .max(MAX_REMINDER_OFFSET_MINUTES)
    .meta({ description: 'How long before the start (or after the end, for a follow-up), in minutes.' }),
  relative_to: z.enum(['start', 'end']).default('start').meta({ description: 'start: before it; end: a follow-up after it.' }),
  to: z.enum(['attendee', 'host', 'both']).default('attendee').meta({ description: 'Whom it reminds; host: each host.' }),
  via: z.enum(['email', 'webhook']).default('email').meta({ description: 'email, or the booking.reminder webhook event.' }),
  text: z.string().max(MAX_REMINDER_TEXT).nullable().default(null).meta({ description: 'A short note added to the reminder.' }),
});
export type ReminderRule = z.output<typeof reminderRuleSchema>;
/** Whom one reminder goes to: a rule `to: both` owes one to each. */
export type ReminderRecipient = 'attendee' | 'host';

export const reminderRulesSchema = z.array(reminderRuleSchema).max(MAX_REMINDER_RULES);

/** A rule as an event type shows it: every field given. */
export const reminderViewSchema = z.object({
  minutes: z.int(),
  relative_to: z.enum(['start', 'end']),
  to: z.enum(['attendee', 'host', 'both']),
  via: z.enum(['email', 'webhook']),
  text: z.string().nullable(),
});

/** A type's stored rules; a row read before the column existed (an old export) has none. */
export function storedReminders(json: string | null | undefined): ReminderRule[] {
  return json ? (JSON.parse(json) as ReminderRule[]) : [];
}

/** What an event type that sets no rules reminds: the attendee by mail a day and an hour ahead (Calendly's and Cal.com's defaults). */
export const DEFAULT_REMINDERS: readonly ReminderRule[] = [
  { minutes: 24 * 60, relative_to: 'start', to: 'attendee', via: 'email', text: null },
  { minutes: 60, relative_to: 'start', to: 'attendee', via: 'email', text: null },
];

/** One reminder a booking is owed. */
export interface DueReminder {
  /** The rule's place in its list: a reminder's identity within its booking, with `recipient`. */
  readonly rule: number;
  readonly recipient: ReminderRecipient;
  readonly via: 'email' | 'webhook';
  readonly dueMs: number;
  readonly text: string | null;
}

/**
 * The reminders a booking from `startMs` to `endMs` is owed, as of `nowMs`:
 * each rule's instant, for each of its recipients. A moment already past is
 * owed nothing (a booking made 30 minutes ahead gets no 1-hour reminder);
 * `silenced` recipients (an attendee with `notify_invitee: false`) get none.
 * Answered in the rules' order, the attendee before the host: the queue
 * orders them by their moments.
 */
/** The instant a rule reminds of a booking: `minutes` before its start, or after its end for a follow-up. */
export function reminderMoment(
  rule: Pick<ReminderRule, 'minutes' | 'relative_to'>,
  booking: { readonly startMs: number; readonly endMs: number },
): number {
  return rule.relative_to === 'start' ? booking.startMs - rule.minutes * MINUTE_MS : booking.endMs + rule.minutes * MINUTE_MS;
}

export function remindersDue(
  rules: readonly ReminderRule[],
  booking: { readonly startMs: number; readonly endMs: number },
  nowMs: number,
  silenced: ReadonlySet<ReminderRecipient> = new Set(),
): DueReminder[] {
  const due: DueReminder[] = [];
  for (const [rule, r] of rules.entries()) {
    const dueMs = reminderMoment(r, booking);
    if (dueMs <= nowMs) continue;
    const recipients: ReminderRecipient[] = r.to === 'both' ? ['attendee', 'host'] : [r.to];
    for (const recipient of recipients) {
      if (!silenced.has(recipient)) due.push({ rule, recipient, via: r.via, dueMs, text: r.text });
    }
  }
  return due;
}

/**
 * How late a reminder may still go out. A dispatcher that was down sends a
 * reminder late only within this window, and never once its meeting has
 * started: "your meeting in 1 hour" an hour after it began is worse than none.
 */
export const REMINDER_GRACE_MS = 15 * MINUTE_MS;

/** What a dispatcher does with a reminder it claimed at `nowMs`: send it, or drop it as too late. */
export function reminderVerdict(
  reminder: { dueMs: number; relativeTo: 'start' | 'end'; startMs: number },
  nowMs: number,
): 'send' | 'too_late' {
  if (nowMs > reminder.dueMs + REMINDER_GRACE_MS) return 'too_late';
  if (reminder.relativeTo === 'start' && nowMs >= reminder.startMs) return 'too_late';
  return 'send';
}

/**
 * The alarms an invite to this recipient carries (docs/reminders.md): the
 * minutes before the start of each rule that reminds them by mail, so their
 * calendar reminds too. Follow-ups after the end and webhook rules have none;
 * each offset once, longest first.
 */
export function alarmMinutes(rules: readonly ReminderRule[], recipient: ReminderRecipient): number[] {
  const minutes = rules
    .filter((r) => r.relative_to === 'start' && r.via === 'email' && (r.to === 'both' || r.to === recipient))
    .map((r) => r.minutes);
  return [...new Set(minutes)].sort((a, b) => b - a);
}
