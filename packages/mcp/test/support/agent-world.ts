import { SCOPES } from '@schedule/core';

// The organization the agent harness books in (agent-harness.test.ts): Uma
// works 09:00-17:00 in Berlin and has one event type; Ulf in Berlin has two;
// Tess works in New York; a sales team (round robin of Uma and Tess) is
// Olga's. The clock is Monday 2 March 2026, 08:00 UTC (09:00 in Berlin).

export const AGENT_T0 = '2026-03-02T08:00:00.000Z';
export const AGENT_TOKEN = 'pat_agent_uma_all_scopes';

const U = (n: number) => `e8000000-0000-4000-8000-00000000000${n}`;
export const AGENT_USER = { olga: U(1), uma: U(2), ulf: U(3), tess: U(4) };
export const AGENT_ET = {
  intro: 'e8100000-0000-4000-8000-000000000001',
  chat: 'e8100000-0000-4000-8000-000000000002',
  deep: 'e8100000-0000-4000-8000-000000000003',
  sales: 'e8100000-0000-4000-8000-000000000004',
};

const hours = (timezone: string) => ({
  timezone,
  weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]])),
});

export function agentWorkspace(): Record<string, unknown> {
  const user = (name: keyof typeof AGENT_USER, timezone: string, extra: Record<string, unknown> = {}) => ({
    id: AGENT_USER[name],
    username: name,
    email: `${name}@agents.test`,
    name: name[0]!.toUpperCase() + name.slice(1),
    timezone,
    schedule: hours(timezone),
    ...extra,
  });
  const type = (id: string, owner: string, slug: string, name: string, extra: Record<string, unknown> = {}) => ({
    id,
    owner,
    slug,
    name,
    duration_minutes: 30,
    minimum_notice_minutes: 0,
    future_limit_days: 90,
    ...extra,
  });
  return {
    organization: { name: 'Agents' },
    users: [
      user('olga', 'UTC', { role: 'owner' }),
      // Uma manages Ulf and Tess: she books their time, as an assistant working for her would.
      user('uma', 'Europe/Berlin', { role: 'manager', manages: ['ulf', 'tess'] }),
      user('ulf', 'Europe/Berlin'),
      user('tess', 'America/New_York'),
    ],
    event_types: [
      type(AGENT_ET.intro, 'uma', 'intro', 'Intro call'),
      type(AGENT_ET.chat, 'ulf', 'chat', 'Chat'),
      type(AGENT_ET.deep, 'ulf', 'deep-dive', 'Deep dive', { duration_minutes: 60 }),
      type(AGENT_ET.sales, 'uma', 'sales-demo', 'Sales demo', {
        scheduling: 'round_robin',
        hosts: [{ username: 'uma' }, { username: 'tess' }],
      }),
    ],
    tokens: [{ name: 'assistant', user: 'uma', secret: AGENT_TOKEN, scopes: SCOPES }],
    bookings: [
      {
        uid: 'e8200000-0000-4000-8000-000000000001',
        event_type: 'intro',
        host: 'uma',
        start: '2026-03-03T14:00:00Z',
        attendee: { email: 'dana@example.com', name: 'Dana', timezone: 'Europe/Paris' },
      },
    ],
  };
}
