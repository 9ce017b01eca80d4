import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { isScheduleError, ScheduleError } from '@schedule/core';
import { z } from 'zod';
import { errorResult } from './call-tool.js';
import type { JsonSchema } from './client-json-schema.js';
import { TOOLSETS_TOOL_DOC } from './tool-docs.js';
import type { ListedTool } from './tool-list.js';
import { declaredOutput, describedOnly, withErrorBranch } from './tool-schemas.js';
import { DEFAULT_TOOLSETS, parseToolsets, TOOLSET_NAMES, TOOLSETS, type ToolsetName } from './toolsets.js';

/** The toolsets a connection may switch on and off: all but the essentials, which are always on. */
const OPTIONAL = TOOLSET_NAMES.filter((name) => !DEFAULT_TOOLSETS.includes(name));

const INPUT: JsonSchema = {
  type: 'object',
  properties: {
    enable: { type: 'array', items: { type: 'string', enum: [...OPTIONAL, 'all'] }, description: 'Toolsets to switch on.' },
    // The names are enable's: listed once, as every byte here is spent on every connection.
    disable: { type: 'array', items: { type: 'string' }, description: 'Toolsets to switch off (names as enable), sparing context.' },
  },
  additionalProperties: false,
};

const OUTPUT: JsonSchema = {
  type: 'object',
  required: ['toolsets', 'kept'],
  properties: {
    toolsets: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'description', 'enabled', 'tools'],
        properties: { enabled: { type: 'boolean' }, tools: { type: 'array', items: { type: 'string' } } },
        additionalProperties: { type: 'string' },
      },
    },
    kept: { type: 'boolean' },
  },
};

/** What the `toolsets` tool answers: every toolset with a tool this token may call, and whether it is on. */
const answerSchema = z.object({
  toolsets: z.array(z.object({ name: z.string(), description: z.string(), enabled: z.boolean(), tools: z.array(z.string()) })),
  kept: z.boolean(),
});

/**
 * `toolsets`: lists the toolsets this token has tools in, and switches on
 * the ones named in `enable`. Switched-on tools are announced once with
 * `notifications/tools/list_changed`, sent with the call's answer so that a
 * stateless HTTP response carries it too; `kept` says whether the
 * connection's next requests still have them (an HTTP client that sends no
 * session id does not: it names them in its URL instead).
 */
export function registerToolsetsTool(
  server: McpServer,
  tools: readonly ListedTool[],
  on: Set<ToolsetName>,
  keep: ((toolsets: readonly ToolsetName[]) => Promise<boolean>) | undefined,
  /** The caller's admission, as every tool's (call-tool.ts admitCall): a revoked token lists nothing, and the call is counted. */
  admit: () => Promise<ScheduleError | undefined>,
): ListedTool {
  const listing = () =>
    TOOLSET_NAMES.map((name) => ({
      name,
      description: TOOLSETS[name],
      enabled: on.has(name),
      tools: tools.filter((tool) => tool.toolset === name).map((tool) => tool.definition.name),
    })).filter((toolset) => toolset.tools.length > 0);

  const definition = {
    name: 'toolsets',
    ...TOOLSETS_TOOL_DOC,
    inputSchema: INPUT as Tool['inputSchema'],
    outputSchema: withErrorBranch(OUTPUT) as Tool['outputSchema'],
  };
  server.registerTool(
    'toolsets',
    { ...definition, inputSchema: describedOnly(INPUT), outputSchema: declaredOutput(withErrorBranch(OUTPUT)) },
    async (args, extra): Promise<CallToolResult> => {
      try {
        const refused = await admit();
        if (refused) return errorResult(refused);
        const { enable, disable, ...stray } = args as { enable?: unknown; disable?: unknown };
        if (Object.keys(stray).length > 0) {
          throw new ScheduleError('validation_error', 'toolsets takes no arguments besides enable, disable.', {
            fields: Object.keys(stray),
          });
        }
        const added = namesIn('enable', enable).filter((name) => !on.has(name));
        const dropped = namesIn('disable', disable).filter((name) => on.has(name) && !DEFAULT_TOOLSETS.includes(name));
        for (const name of added) on.add(name);
        for (const name of dropped) on.delete(name);
        let kept = true;
        if (added.length > 0 || dropped.length > 0) {
          kept = keep ? await keep([...on]) : true;
          await extra.sendNotification({ method: 'notifications/tools/list_changed' });
        }
        // A change answers the toolsets it changed; the whole listing is what a call without one asks for.
        const changed = [...added, ...dropped];
        const shown = changed.length === 0 ? listing() : listing().filter((toolset) => changed.includes(toolset.name));
        const answer = answerSchema.parse({ toolsets: shown, kept });
        return { structuredContent: answer, content: [{ type: 'text', text: toolsetsText(answer, added, dropped, [...on]) }] };
      } catch (error) {
        if (isScheduleError(error)) return errorResult(error);
        throw error;
      }
    },
  );
  return { toolset: null, definition };
}

/** The names one of the arguments gives, checked as a URL's `toolsets` are (all, unknown names refused). */
function namesIn(argument: 'enable' | 'disable', value: unknown): readonly ToolsetName[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string')) {
    throw new ScheduleError('validation_error', `${argument}: must be an array of toolset names.`, { fields: [argument] });
  }
  try {
    return parseToolsets(value.join(',')).filter((name) => value.includes(name) || value.includes('all'));
  } catch (error) {
    if (isScheduleError(error)) throw new ScheduleError('validation_error', error.message, { fields: [argument] });
    throw error;
  }
}

function toolsetsText(
  answer: z.infer<typeof answerSchema>,
  added: readonly ToolsetName[],
  dropped: readonly ToolsetName[],
  on: readonly ToolsetName[],
): string {
  const lines = answer.toolsets.map((t) => `${t.enabled ? 'on ' : 'off'} ${t.name}: ${t.description} Tools: ${t.tools.join(', ')}.`);
  const changes = [
    ...(added.length > 0 ? [`switched on ${added.join(', ')}`] : []),
    ...(dropped.length > 0 ? [`switched off ${dropped.join(', ')}`] : []),
  ].join('; ');
  const head =
    changes === ''
      ? 'Toolsets (switch one on with enable, off with disable):'
      : answer.kept
        ? `${changes[0]!.toUpperCase()}${changes.slice(1)}; the tool list is updated.`
        : `${changes[0]!.toUpperCase()}${changes.slice(1)} for this request only: this connection keeps no session. Name the toolsets in the server URL instead (?toolsets=${on.filter((name) => !DEFAULT_TOOLSETS.includes(name)).join(',')}).`;
  return [head, ...lines].join('\n');
}
