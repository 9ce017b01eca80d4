import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKLOG_COUNT_CAP, countBacklog } from '../src/outbox/count-backlog.js';
import type { Store } from '../src/storage/store.js';
import { storeFixtures } from './support/stores.js';

const AT = '2026-01-05T12:00:00.000Z';
const NOW = Date.parse(AT) + 1_000;
const LATER = '2026-01-06T12:00:00.000Z';

function outboxRow(id: string, dispatchedAt: string | null) {
  return { id, event_type: 'booking.created', subject_uid: 's', payload_json: '{}', created_at: AT, dispatched_at: dispatchedAt };
}

function mailRow(id: string, status: string) {
  return {
    id,
    kind: 'series_confirmation',
    series_uid: null,
    recipient: 'a@example.test',
    payload_json: '{}',
    status,
    attempts: 0,
    next_attempt_at: AT,
    created_at: AT,
    sent_at: null,
  };
}

describe.each(storeFixtures())('countBacklog on $name', (fixture) => {
  afterAll(() => fixture.cleanup());

  it('is zero on an empty store', async () => {
    expect(await countBacklog(await fixture.open(), NOW)).toEqual({ events: 0, mail: 0 });
  });

  it('counts undispatched events and mail due and pending only', async () => {
    const store = await fixture.open();
    await store.db
      .insertInto('outbox')
      .values([outboxRow('e1', null), outboxRow('e2', null), outboxRow('e3', AT)])
      .execute();
    await store.db
      .insertInto('notifications')
      .values([
        mailRow('m1', 'pending'),
        mailRow('m2', 'pending'),
        mailRow('m3', 'sent'),
        mailRow('m4', 'suppressed'),
        mailRow('m5', 'failed'),
        // A reminder waiting for its moment is not behind.
        { ...mailRow('m6', 'pending'), kind: 'booking_reminder', next_attempt_at: LATER },
      ])
      .execute();
    expect(await countBacklog(store, NOW)).toEqual({ events: 2, mail: 2 });
  });

  it(`stops counting at ${BACKLOG_COUNT_CAP}, so a scrape costs the same however long the backlog`, async () => {
    const store: Store = await fixture.open();
    // One statement both engines run: a recursive series of BACKLOG_COUNT_CAP + 1 rows.
    await sql`insert into outbox (id, event_type, subject_uid, payload_json, created_at, dispatched_at)
      with recursive n(i) as (select 1 union all select i + 1 from n where i <= ${sql.lit(BACKLOG_COUNT_CAP)})
      select 'e' || i, 'booking.created', 's', '{}', ${AT}, null from n`.execute(store.db);
    expect(await countBacklog(store, NOW)).toEqual({ events: BACKLOG_COUNT_CAP, mail: 0 });
  });
});
