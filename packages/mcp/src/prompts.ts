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
              `1. Call find_times${event_type ? ` with event_type "${event_type}"` : ''}: from, to and part_of_day as the days meant, attendee_timezone the attendee's zone if known (else mine). Ask me if several event types fit.`,
              "2. Offer me the options as find_times writes them, with both zones; never restate a time in other words ('tomorrow').",
              '3. If the event type has questions (list_event_types in the directory toolset shows them), ask me each one; send the answers as responses, keyed by question id.',
              '4. Once I choose, call book_time with its option_id and the attendee (with their timezone), and an idempotency_key you keep for retries.',
              '5. Tell me the booking uid, the time as book_time wrote it, the conference link, and any warning it gave.',
              'If book_time answers slot_unavailable, the time was taken meanwhile: call find_times again.',
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
              '1. The host is me unless I say otherwise (list_people in the directory toolset, if you need their username).',
              `2. Find ${event_type ? `the event type matching "${event_type}"` : 'the fitting event type'} (list_event_types in the directory toolset); it must have recurring "on".`,
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
