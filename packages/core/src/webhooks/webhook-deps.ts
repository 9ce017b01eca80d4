import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';

/** What the webhook management operations use; passed in, never imported. */
export interface WebhookDeps {
  readonly clock: Clock;
  readonly ids: IdGenerator;
}
