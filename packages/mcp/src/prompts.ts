import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** The two prompts of issue 5: book a meeting, and, when the connection has the series tools, set up a recurring series. */
export function registerPrompts(server: McpServer, withSeries: boolean): void {
  server.registerPrompt(
    'book_meeting',
    {
      title: 'Book a meeting',
      description: 'Find a free time with someone and book it.',
      argsSchema: {
        attendee_email: z.string().describe('Who the meeting is with.'),
        attendee_name: z.string().optional().describe('Their name, if known.'),
        event_type: z.string().optional().describe('Which kind of meeting (name, slug or id), if known.'),
        when: z.string().optional().describe('When, in the user\'s words ("next Tuesday afternoon").'),
      },
    },
    ({ attendee_email, attendee_name, event_type, when }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Book a meeting with ${attendee_name ? `${attendee_name} <${attendee_email}>` : attendee_email}${when ? `, ${when}` : ''}.`,
              '1. Call whoami to learn my time zone; read times to me in it.',
              `2. Call list_event_types and pick ${event_type ? `the one matching "${event_type}"` : 'the fitting event type (ask me if several fit)'}.`,
              '3. Call list_slots for that event type over the days meant (at most 31 days at once) and offer me two or three free times.',
              '4. If the event type has questions (list_event_types shows them), ask me each one; required ones need an answer, a select takes one of its options. Send the answers as responses, keyed by question id.',
              '5. Once I choose, call create_booking with that start (with its offset, e.g. +01:00), the attendee, the responses, and an idempotency_key you keep for retries of this same booking.',
              '6. Tell me the booking uid, the time in my zone, and the conference link in location.url.',
              'If create_booking answers slot_unavailable, the time was taken meanwhile: check_slot gives next_available.',
            ].join('\n'),
          },
        },
      ],
    }),
  );

  // A prompt that walks a model to tools it does not have would only end in an unknown tool.
  if (!withSeries) return;
  server.registerPrompt(
    'set_up_series',
    {
      title: 'Set up a recurring series',
      description: 'Book a run of meetings on a weekly or monthly pattern.',
      argsSchema: {
        attendee_email: z.string().describe('Who the meetings are with.'),
        pattern: z.string().describe('How often and when, in the user\'s words ("every other Monday at 10").'),
        event_type: z.string().optional().describe('Which kind of meeting (name, slug or id), if known.'),
        count: z.string().optional().describe('How many meetings (1 to 42).'),
      },
    },
    ({ attendee_email, pattern, event_type, count }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Set up a recurring series with ${attendee_email}: ${pattern}${count ? `, ${count} times` : ''}.`,
              '1. Call whoami for my user id and time zone, and list_people if the host is someone else.',
              `2. Call list_event_types and pick ${event_type ? `the one matching "${event_type}"` : 'the fitting one'}; it must have recurring "on".`,
              '3. Turn the pattern into create_series fields: frequency "weekly" with weekdays and interval_weeks (1-8), or "monthly_same_day" (the day of starts_on); time as HH:MM in timezone; starts_on; count 1-42.',
              '4. Call create_series with an idempotency_key you keep for retries.',
              '5. Tell me the dates booked (occurrences) and, separately, the dates skipped because the host was not free: skipped dates are NOT moved to another day.',
              'Later: pause_series holds the future meetings and resume_series books them again; end_series cancels the rest for good.',
            ].join('\n'),
          },
        },
      ],
    }),
  );
}
