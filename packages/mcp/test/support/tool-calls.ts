import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callerSchema,
  createAuthenticator,
  type ExecuteDeps,
  eventTypeSummarySchema,
  execute,
  type Limits,
  type ListOutcome,
  loadWorkspace,
  type ManualClock,
  manualClock,
  type Operation,
  operations,
  type Principal,
  parseWorkspace,
  personSchema,
  type RawCall,
  randomIds,
} from '@schedule/core';
import { expect } from 'vitest';
import type { z } from 'zod';
import { pageSchema, successSchema, type ToolsetName } from '../../src/index.js';
import { type McpWorld, openMcpWorld } from './harness.js';
import { M0, mcpWorkspace, type WorkspaceOptions } from './mcp-workspace.js';

// Calls through a real SDK Client, and the same operations through core's
// `execute`, so that a test can hold one against the other.

/** A tool result as the client received it; structured content typed loosely for assertions. */
export interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content: { type: string; text?: string }[];
}

/** A world over the MCP suites' workspace, its clock pinned at M0. */
export interface Suite {
  readonly world: McpWorld;
  readonly clock: ManualClock;
  /** Loads the workspace again, changed as told (docs/workspace.md: a changed file updates what it names). */
  reload(options: WorkspaceOptions): Promise<void>;
  /** A connected client that has listed the tools, so the SDK checks every result against its outputSchema. */
  client(secret: string, toolsets?: readonly ToolsetName[]): Promise<Client>;
  /** The principal a secret authenticates as, for calling core directly. */
  principal(secret: string): Promise<Principal>;
}

export async function openSuite(
  options: { db?: string; limits?: Limits; overrides?: Partial<ExecuteDeps>; workspace?: WorkspaceOptions } = {},
): Promise<Suite> {
  const clock = manualClock(M0);
  const world = await openMcpWorld(mcpWorkspace(options.workspace), {
    clock,
    ...(options.db ? { db: options.db } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.overrides ? { overrides: options.overrides } : {}),
  });
  const authenticate = createAuthenticator({ store: world.store, clock });
  return {
    world,
    clock,
    async reload(workspace) {
      await loadWorkspace({ store: world.store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(mcpWorkspace(workspace))));
    },
    async client(secret, toolsets) {
      const client = await world.connect(secret, toolsets);
      await client.listTools();
      return client;
    },
    async principal(secret) {
      const principal = await authenticate(secret);
      if (!principal) throw new Error(`no principal for ${secret}`);
      return principal;
    },
  };
}

export function operationNamed(name: string): Operation {
  const operation = operations.find((o) => o.name === name);
  if (!operation) throw new Error(`no operation ${name}`);
  return operation;
}

/** What each directory tool declares as its success (build-server.ts). */
const DIRECTORY_SUCCESS: Record<string, z.ZodType> = {
  whoami: callerSchema,
  list_people: pageSchema(personSchema),
  list_event_types: pageSchema(eventTypeSummarySchema),
};

/** The zod schema of a tool's success: core's, through tool-schemas' `successSchema` for API tools. */
export function successSchemaOf(name: string): z.ZodType {
  return DIRECTORY_SUCCESS[name] ?? successSchema(operationNamed(name));
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

/**
 * Calls a tool that must succeed. The SDK client has already checked the
 * structured content against the declared outputSchema (it throws if not);
 * it is also parsed with the zod schema the tool was declared from.
 */
export async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
  const structured = result.structuredContent;
  if (structured === undefined) throw new Error(`${name} returned no structuredContent`);
  const parsed = successSchemaOf(name).safeParse(structured);
  expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  return structured;
}

/** The text a failed call carries beside its structured error. */
export function errorText(code: string, message: string, details: Record<string, unknown>): string {
  return `error ${code}: ${message}${Object.keys(details).length > 0 ? ` ${JSON.stringify(details)}` : ''}`;
}

/** Asserts a failed call exactly: isError, the structured error without request id, and the text. */
export function expectToolError(result: ToolResult, code: string, message: string, details: Record<string, unknown>): void {
  expect({ isError: result.isError, structuredContent: result.structuredContent, content: result.content }).toEqual({
    isError: true,
    structuredContent: { error: { code, message, details } },
    content: [{ type: 'text', text: errorText(code, message, details) }],
  });
  expect(result.content[0]?.text?.startsWith(`error ${code}:`)).toBe(true);
}

/** Calls a tool that must fail, and asserts the failure exactly. */
export async function fails(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  expected: { code: string; message: string; details: Record<string, unknown> },
): Promise<void> {
  expectToolError(await call(client, name, args), expected.code, expected.message, expected.details);
}

/**
 * The same operation through core's `execute`, as HTTP runs it; a list
 * answers in the tool's shape `{ data, next_cursor, has_more }`.
 */
export async function viaCore(suite: Suite, secret: string, name: string, raw: Partial<RawCall> = {}): Promise<Record<string, any>> {
  const operation = operationNamed(name);
  const principal = await suite.principal(secret);
  const { outcome } = await execute(suite.world.core, operation, principal, { params: {}, query: {}, body: undefined, ...raw }, 'req-core');
  if (operation.schemas.list) {
    const { page } = outcome as ListOutcome;
    return { data: outcome.data, next_cursor: page.nextCursor, has_more: page.hasMore };
  }
  return outcome.data as Record<string, any>;
}

/** Rows of the bookings table, for counting what was written. */
export async function bookingUids(suite: Suite): Promise<string[]> {
  const rows = await suite.world.store.db.selectFrom('bookings').select('uid').orderBy('uid').execute();
  return rows.map((r) => r.uid);
}
