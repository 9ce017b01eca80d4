import type { WebhookDeliverySettings } from './delivery-deps.js';

/** What the caps need to know of a delivery's webhook, as read when the delivery was claimed. */
export interface Standing {
  readonly webhook_id: string;
  readonly owner_user_id: string;
  /** Its receiver's last answer came promptly (webhooks.answers_promptly). */
  readonly answers_promptly: boolean;
}

/** What a claim's query leaves out, so that the backlog of webhooks with no room never fills its candidates. */
export interface Exclusions {
  /** Slots free in all. */
  readonly free: number;
  /** Webhooks with no room left. */
  readonly webhooks: string[];
  /** Accounts with no room left. */
  readonly owners: string[];
  /** The slots for unproven receivers are all taken: only webhooks that answer promptly may start. */
  readonly promptOnly: boolean;
}

/**
 * The requests one process has in flight, counted against its caps
 * (docs/webhooks.md "Slow receivers"): in all, per webhook (four for a
 * receiver that answers promptly, one for any other), per account, and for
 * receivers not proven prompt together, so that some slots are always left
 * for those that are. A delivery is counted as its webhook stood when it
 * was claimed, and given back the same way.
 */
export interface DeliverySlots {
  /** Whether one more delivery of this webhook may start now, under every cap. */
  admits(standing: Standing): boolean;
  take(standing: Standing): void;
  giveBack(standing: Standing): void;
  /** Requests counted now. */
  inFlight(): number;
  exclusions(): Exclusions;
  /** A copy to pick a claim's rows against: the rows picked may not all be leased, and only those started are taken for real. */
  copy(): DeliverySlots;
}

type Caps = Pick<WebhookDeliverySettings, 'maxInFlight' | 'maxInFlightPerWebhook' | 'maxInFlightPerOwner' | 'maxInFlightUnproven'>;

interface Counts {
  total: number;
  unproven: number;
  /** Requests per webhook, and whether it answered promptly when last seen. */
  readonly webhooks: Map<string, { n: number; prompt: boolean }>;
  readonly owners: Map<string, number>;
}

export function deliverySlots(caps: Caps): DeliverySlots {
  return slotsOver(caps, { total: 0, unproven: 0, webhooks: new Map(), owners: new Map() });
}

function slotsOver(caps: Caps, counts: Counts): DeliverySlots {
  const capOf = (prompt: boolean) => (prompt ? caps.maxInFlightPerWebhook : 1);
  const add = (map: Map<string, number>, key: string, by: number) => {
    const n = (map.get(key) ?? 0) + by;
    // Stryker disable next-line ConditionalExpression: its false variant only keeps a count of 0, which admits and excludes as an absent one (memory only); the true variant is killed
    if (n === 0) map.delete(key);
    else map.set(key, n);
  };
  return {
    admits(s) {
      return (
        counts.total < caps.maxInFlight &&
        (counts.webhooks.get(s.webhook_id)?.n ?? 0) < capOf(s.answers_promptly) &&
        (counts.owners.get(s.owner_user_id) ?? 0) < caps.maxInFlightPerOwner &&
        (s.answers_promptly || counts.unproven < caps.maxInFlightUnproven)
      );
    },
    take(s) {
      counts.total++;
      if (!s.answers_promptly) counts.unproven++;
      counts.webhooks.set(s.webhook_id, { n: (counts.webhooks.get(s.webhook_id)?.n ?? 0) + 1, prompt: s.answers_promptly });
      add(counts.owners, s.owner_user_id, 1);
    },
    giveBack(s) {
      counts.total--;
      if (!s.answers_promptly) counts.unproven--;
      // Given back only what was taken: the entry is there.
      const webhook = counts.webhooks.get(s.webhook_id)!;
      webhook.n--;
      // Stryker disable next-line ConditionalExpression: its false variant only keeps a count of 0, which admits and excludes as an absent one (memory only); the true variant is killed
      if (webhook.n === 0) counts.webhooks.delete(s.webhook_id);
      add(counts.owners, s.owner_user_id, -1);
    },
    inFlight: () => counts.total,
    exclusions() {
      const webhooks = [...counts.webhooks].filter(([, w]) => w.n >= capOf(w.prompt)).map(([id]) => id);
      const owners = [...counts.owners].filter(([, n]) => n >= caps.maxInFlightPerOwner).map(([id]) => id);
      return { free: caps.maxInFlight - counts.total, webhooks, owners, promptOnly: counts.unproven >= caps.maxInFlightUnproven };
    },
    copy() {
      return slotsOver(caps, {
        total: counts.total,
        unproven: counts.unproven,
        webhooks: new Map([...counts.webhooks].map(([id, w]) => [id, { ...w }])),
        owners: new Map(counts.owners),
      });
    },
  };
}
