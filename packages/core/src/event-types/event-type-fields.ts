import { z } from 'zod';
import { DEFAULT_REMINDERS, MAX_REMINDER_RULES, reminderRulesSchema } from '../reminders/reminder-rules.js';
import { ON_OFF, SCHEDULINGS, VISIBILITIES } from '../storage/schema.js';
import { httpUrl, uuid } from '../validation/fields.js';
import { questionSchema } from './questions.js';

// The fields of an event type, declared once: the workspace file's entries
// (workspace-schema.ts) and the API's create and PATCH bodies
// (event-type-input.ts) are built from these, so a file load and an API call
// refuse the same values with the same words.

/** A slug as a booking page and `username` + `event_slug` name an event type: no `~`, which an archived type's stored slug holds. */
export const slug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,99}$/, 'must be lowercase letters, digits and dashes')
  .meta({ description: 'Unique per owner; lowercase letters, digits and dashes.', examples: ['intro-call'] });

/**
 * Where a booking of the event type meets: `conference`, a link generated
 * for each booking (today's behaviour); `link`, one fixed URL for every
 * booking; `phone` and `in_person`, a number or an address shown as the
 * booking's `location.value`.
 */
export const eventTypeLocationSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('conference') }),
    z.object({ type: z.literal('link'), url: httpUrl }),
    z.object({ type: z.literal('phone'), value: z.string().trim().min(1).max(100) }),
    z.object({ type: z.literal('in_person'), value: z.string().trim().min(1).max(500) }),
  ])
  .meta({ description: 'conference: a link generated per booking; link: one fixed url; phone / in_person: a value.' });
export type EventTypeLocation = z.output<typeof eventTypeLocationSchema>;

/** The location of a type made without one, and of every type stored before locations existed. */
export const GENERATED_CONFERENCE: EventTypeLocation = { type: 'conference' };

/** The booking form: question ids are the keys of `responses`, so each is used once. */
const questions = z
  .array(questionSchema)
  .max(50)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    for (const [i, question] of list.entries()) {
      // Stryker disable next-line StringLiteral: equivalent: an issue's code only picks plain words (issue-words.ts), and an unknown code keeps the issue's own message as 'custom' does; the line's other strings (path, message) are killed.
      if (seen.has(question.id)) ctx.addIssue({ code: 'custom', message: `"${question.id}" is used twice`, path: [i, 'id'] });
      seen.add(question.id);
    }
  })
  .meta({ description: 'The booking form; answers go in a booking’s `responses` by question id.' });

/** The most hosts a team type's pool holds (docs/api/teams.md): each is read for every slot list, and locked by a create. */
export const MAX_POOL_HOSTS = 500;

/** One host of a pool as a caller names them; stored by user id (event-types/pool.ts). */
const poolHost = z
  .object({
    user_id: uuid.optional().meta({ description: 'The host; or username.' }),
    username: z.string().min(1).max(100).optional().meta({ description: 'The host; or user_id.' }),
    weight: z
      .int()
      .min(1)
      .max(1000)
      .default(1)
      .meta({ description: 'Round robin: a host of weight 2 gets twice the bookings of one of weight 1.' }),
    priority: z
      .int()
      .min(0)
      .max(100)
      .default(0)
      .meta({ description: 'Round robin: among hosts equally due, the higher priority is chosen.' }),
    fixed: z.boolean().default(false).meta({
      description:
        'true: this host meets the attendee at every booking, beside the one round robin picks; every host of a collective pool is.',
    }),
  })
  .superRefine((host, ctx) => {
    if ((host.user_id === undefined) === (host.username === undefined))
      ctx.addIssue({ code: 'custom', message: 'name the host by exactly one of user_id and username', path: ['user_id'] });
  });
export type DeclaredPoolHost = z.output<typeof poolHost>;

const minutes = (max: number) => z.int().min(1).max(max);
const nonNegative = z.int().min(0).max(525_600);

/** Every field an event type has, each without its default: a PATCH sends only what changes. */
export const eventTypeFields = {
  slug,
  name: z.string().min(1).max(200).meta({ description: 'Shown to people booking.' }),
  description: z.string().max(5000).nullable().meta({ description: 'Shown to people booking; null: none.' }),
  duration_minutes: minutes(1440).meta({ description: '1 to 1440.' }),
  status: z.enum(ON_OFF).meta({ description: 'off: not bookable (slots empty, bookings and series refused).' }),
  minimum_notice_minutes: nonNegative.meta({ description: 'No start sooner than this.' }),
  cancel_notice_minutes: nonNegative.meta({
    description: 'A booking starting sooner than this can no longer be canceled by its attendee; 0: none.',
  }),
  reschedule_notice_minutes: nonNegative.meta({
    description: 'A booking starting sooner than this can no longer be moved by its attendee; 0: none.',
  }),
  future_limit_days: z.int().min(1).max(3650).meta({ description: 'No start later than this.' }),
  recurring: z.enum(ON_OFF).meta({ description: 'off: no new series.' }),
  allow_reschedule: z.boolean().meta({ description: 'false: bookings cannot be moved.' }),
  requires_confirmation: z.boolean().meta({
    description: 'true: a new booking starts `pending`, holding its time until the host confirms or declines it; series are refused.',
  }),
  buffer_before_minutes: nonNegative.meta({ description: 'Kept free before each booking.' }),
  buffer_after_minutes: nonNegative.meta({ description: 'Kept free after each booking.' }),
  slot_interval_minutes: minutes(1440).meta({ description: '1 to 1440; the duration when absent at creation.' }),
  questions,
  /** false: no mail to this event type's attendees (docs/mail.md); the host's mail still goes. */
  attendee_mail: z.boolean().meta({ description: 'false: attendees get no mail.' }),
  location: eventTypeLocationSchema,
  reminders: reminderRulesSchema.meta({
    description: `Reminders before (or follow-ups after) each booking, up to ${MAX_REMINDER_RULES}; [] for none. Default: the attendee by email 24 h and 1 h before.`,
  }),
  max_bookings_per_day: z
    .int()
    .min(1)
    .max(1000)
    .nullable()
    .meta({ description: "Most bookings a host takes of it per day, in the host's zone; null: no limit." }),
  max_bookings_per_week: z.int().min(1).max(1000).nullable().meta({ description: 'The same per ISO week (Monday first); null: no limit.' }),
  seats: z.int().min(2).max(1000).nullable().meta({ description: 'Attendees per start, each their own booking; null: one.' }),
  scheduling: z.enum(SCHEDULINGS).meta({
    description:
      'single: the owner hosts; round_robin: one free host of `hosts` per booking, chosen fairly, with the fixed ones; collective: all of `hosts`.',
  }),
  hosts: z
    .array(poolHost)
    .max(MAX_POOL_HOSTS)
    .meta({
      description: `The pool, up to ${MAX_POOL_HOSTS} users of the organization: round_robin at least one not fixed, collective at least two; single: empty.`,
    }),
  visibility: z
    .enum(VISIBILITIES)
    .meta({ description: 'public: listed on the booking page; hidden: booked by its link only; private: no page, the API only.' }),
};

/** An event type as it is declared whole (a workspace entry, a create): what is left out takes its default. */
export const eventTypeDeclaration = z.object({
  ...eventTypeFields,
  description: eventTypeFields.description.default(null),
  status: eventTypeFields.status.default('on'),
  minimum_notice_minutes: eventTypeFields.minimum_notice_minutes.default(0),
  cancel_notice_minutes: eventTypeFields.cancel_notice_minutes.default(0),
  reschedule_notice_minutes: eventTypeFields.reschedule_notice_minutes.default(0),
  future_limit_days: eventTypeFields.future_limit_days.default(60),
  recurring: eventTypeFields.recurring.default('on'),
  allow_reschedule: eventTypeFields.allow_reschedule.default(true),
  requires_confirmation: eventTypeFields.requires_confirmation.default(false),
  buffer_before_minutes: eventTypeFields.buffer_before_minutes.default(0),
  buffer_after_minutes: eventTypeFields.buffer_after_minutes.default(0),
  slot_interval_minutes: eventTypeFields.slot_interval_minutes.optional(),
  questions: eventTypeFields.questions.default([]),
  attendee_mail: eventTypeFields.attendee_mail.default(true),
  location: eventTypeFields.location.default(GENERATED_CONFERENCE),
  reminders: eventTypeFields.reminders.default(() => DEFAULT_REMINDERS.map((rule) => ({ ...rule }))),
  visibility: eventTypeFields.visibility.default('public'),
  max_bookings_per_day: eventTypeFields.max_bookings_per_day.default(null),
  max_bookings_per_week: eventTypeFields.max_bookings_per_week.default(null),
  seats: eventTypeFields.seats.default(null),
  scheduling: eventTypeFields.scheduling.default('single'),
  hosts: eventTypeFields.hosts.default([]),
});
export type EventTypeDeclaration = z.output<typeof eventTypeDeclaration>;
