import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import { applyWorkspace } from '../src/workspace/apply-plan.js';
import { parseDeclaredWorkspace } from '../src/workspace/parse-workspace.js';
import { planWorkspace } from '../src/workspace/plan-workspace.js';
import { storeFixtures } from './support/stores.js';

// Issue 32: for a generated workspace and a generated edit of it, once the
// base is applied the plan of the edit lists exactly the entries (and
// fields) the edit changed, adds and drops; once the edit is applied (with
// --prune) its plan is empty.

const T0 = '2026-11-02T08:00:00.000Z';
const USERNAMES = ['ann', 'ben', 'cy'] as const;
const SLUGS = ['intro', 'sales', 'demo', 'review', 'sync'] as const;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York'] as const;

/** Every field written out, so that the edit's JSON differs exactly where its meaning does. */
const user = (username: string) =>
  fc.record({
    username: fc.constant(username),
    email: fc.constant(`${username}@gen.test`),
    name: fc.constantFrom('One', 'Two', 'Three'),
    timezone: fc.constantFrom(...ZONES),
    role: fc.constantFrom('user', 'manager'),
    manages: fc.constant([] as string[]),
    calendars: fc.constant([] as object[]),
  });

const eventType = (owner: string, slug: string) =>
  fc.record({
    owner: fc.constant(owner),
    slug: fc.constant(slug),
    name: fc.constantFrom('Call', 'Meeting'),
    duration_minutes: fc.constantFrom(15, 30, 45),
    slot_interval_minutes: fc.constantFrom(15, 30),
    status: fc.constantFrom('on', 'off'),
    recurring: fc.constantFrom('on', 'off'),
    allow_reschedule: fc.boolean(),
    minimum_notice_minutes: fc.constantFrom(0, 60),
    future_limit_days: fc.constantFrom(30, 60),
    buffer_before_minutes: fc.constantFrom(0, 10),
    buffer_after_minutes: fc.constantFrom(0, 10),
    questions: fc.constantFrom([], [{ id: 'why', label: 'Why?', type: 'text', required: false }]),
    attendee_mail: fc.boolean(),
  });

type Entry = Record<string, unknown>;

const workspace = fc
  .tuple(
    fc.tuple(...USERNAMES.map(user)),
    fc
      .subarray([...SLUGS])
      .chain((slugs) => fc.tuple(...slugs.map((slug) => fc.constantFrom(...USERNAMES).chain((o) => eventType(o, slug))))),
  )
  .map(([users, eventTypes]) => ({ users: users as Entry[], event_types: eventTypes as Entry[] }));

const labelOf = (kind: string, entry: Entry) => (kind === 'user' ? String(entry.username) : `${entry.owner}/${entry.slug}`);

/** The fields whose values differ, sorted. */
const differing = (a: Entry, b: Entry) =>
  Object.keys(b)
    .filter((field) => JSON.stringify(a[field]) !== JSON.stringify(b[field]))
    .sort();

describe.each(storeFixtures())('plan of a generated edit on $name (issue 32)', (fixture) => {
  afterAll(() => fixture.cleanup());

  it('lists exactly the edited entries and fields, and nothing once the edit is applied', async () => {
    await fc.assert(
      fc.asyncProperty(workspace, workspace, async (base, edit) => {
        const store = await fixture.open();
        const deps = { store, clock: manualClock(T0), ids: randomIds };
        await applyWorkspace(deps, parseDeclaredWorkspace(JSON.stringify(base)));
        const editFile = parseDeclaredWorkspace(JSON.stringify(edit));

        const expected: string[] = [];
        for (const [kind, list, before] of [
          ['user', edit.users, base.users],
          ['event_type', edit.event_types, base.event_types],
        ] as const) {
          for (const entry of list) {
            const old = before.find((b) => labelOf(kind, b) === labelOf(kind, entry));
            // An event type keeps its id while its owner and slug stay: another owner makes it another entry.
            if (!old) expected.push(`create ${kind} ${labelOf(kind, entry)}`);
            else if (differing(old, entry).length > 0) expected.push(`change ${kind} ${labelOf(kind, entry)} ${differing(old, entry)}`);
          }
          for (const old of before) {
            const named = list.some((entry) => labelOf(kind, entry) === labelOf(kind, old));
            // Whatever its status: a prune archives it, and only an archived type is gone from the plan.
            if (!named) expected.push(`not_in_file ${kind} ${labelOf(kind, old)}`);
          }
        }
        const plan = await planWorkspace(deps, editFile, { prune: true });
        const listed = plan.items.flatMap((item) => {
          if (item.action === 'unchanged') return [];
          if (item.action === 'change') return [`change ${item.kind} ${item.label} ${item.changes.map((c) => c.field).sort()}`];
          return [`${item.action} ${item.kind} ${item.label}`];
        });
        expect(listed.sort()).toEqual(expected.sort());

        await applyWorkspace(deps, editFile, { prune: true });
        const after = await planWorkspace(deps, editFile, { prune: true });
        expect(after.changes).toBe(false);
        expect(after.items.filter((item) => item.action !== 'unchanged')).toEqual([]);
      }),
      { numRuns: fixture.name === 'sqlite' ? 40 : 12 },
    );
  });
});
