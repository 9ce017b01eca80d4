import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { OperationName } from '@schedule/core';

/**
 * Tools that destroy what a person would miss: a meeting, a series' future,
 * a webhook, an event type, time off, a calendar account, a token, a
 * person's access. Each asks the user first (docs/mcp.md "Confirmation").
 */
export const DESTRUCTIVE: ReadonlySet<OperationName> = new Set<OperationName>([
  'cancel_booking',
  'decline_booking',
  'end_series',
  'delete_webhook',
  'delete_event_type',
  'delete_time_off',
  'remove_calendar',
  'revoke_token',
  'deactivate_person',
]);

/** The argument a destructive tool takes where its client cannot ask the user. */
export const CONFIRM_ARGUMENT = {
  type: 'boolean',
  description: 'true once the user agreed; needed where the client cannot ask them.',
} as const;

/** How long a user may take to answer the question before the call gives up. */
const ANSWER_WAIT_MS = 5 * 60_000;

/** What asking the user came to. */
export type Confirmation = 'confirmed' | 'declined' | 'cannot_ask';

/** Asks the user, through the client, to confirm what a tool is about to do. */
export type Confirmer = (message: string) => Promise<Confirmation>;

/**
 * Asks through MCP elicitation (a form with one checkbox) when the client
 * said it can show one; a stateless HTTP request never can, as the answer
 * would reach another request's server.
 */
export function confirmerOf(server: McpServer): Confirmer {
  return async (message) => {
    if (!server.server.getClientCapabilities()?.elicitation?.form) return 'cannot_ask';
    const answer = await server.server.elicitInput(
      {
        mode: 'form',
        message,
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', title: 'Yes, do it', description: message } },
          required: ['confirm'],
        },
      },
      { timeout: ANSWER_WAIT_MS },
    );
    return answer.action === 'accept' && answer.content?.confirm === true ? 'confirmed' : 'declined';
  };
}
