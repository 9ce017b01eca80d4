import { loadDriver } from '../../optional-driver.js';

/** One POST of a delivery. */
export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Aborts the request (the service stopping); the request's own timeout is the client's. */
  readonly signal?: AbortSignal | undefined;
}

/** What the receiver answered, whatever the status. */
export interface WebhookAnswer {
  readonly status: number;
  /** The `Retry-After` header as sent, if any. */
  readonly retryAfter: string | undefined;
  /** The start of the body, at most the client's cap (4 KiB), as text. */
  readonly body: string;
}

/**
 * Sends deliveries. `post` resolves with any answer, 2xx or not, and rejects
 * with a WebhookRequestFailed when there was none (refused target, DNS,
 * connection, timeout); its message is what `last_error` shows.
 */
export interface WebhookHttpClient {
  post(request: WebhookRequest): Promise<WebhookAnswer>;
  close(): Promise<void>;
}

/** No answer from the receiver; the message says why, for the owner reading the delivery. */
export class WebhookRequestFailed extends Error {
  override readonly name = 'WebhookRequestFailed';
  /** The receiver took the whole time limit (to connect, or to answer): it held a slot for it, and is backed off. */
  readonly timedOut: boolean;

  constructor(message: string, options?: ErrorOptions & { timedOut?: boolean }) {
    super(message, options);
    this.timedOut = options?.timedOut ?? false;
  }
}

export interface WebhookHttpOptions {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: lets deliveries reach loopback and private addresses (development, tests). */
  readonly allowPrivateTargets: boolean;
  /** Budget for the TCP (and TLS) connection; 5 s. */
  readonly connectTimeoutMs?: number;
  /** Budget for the whole request, connection to last byte read; 10 s. */
  readonly timeoutMs?: number;
  /** How much of a response body is read and kept; 4 KiB. */
  readonly maxBodyBytes?: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BODY_BYTES = 4096;

/**
 * The undici client, loaded on the first delivery: undici is an optional
 * peer of core, and a process that never delivers a webhook (the CLI, an
 * embedder without webhooks) never loads it.
 */
export function webhookHttpClient(options: WebhookHttpOptions): WebhookHttpClient {
  let client: Promise<WebhookHttpClient> | undefined;
  const load = () => {
    client ??= loadDriver(() => import('../adapters/undici-client.js'), { packages: ['undici'], usedFor: 'deliver webhooks' }).then((m) =>
      m.undiciWebhookClient(options),
    );
    return client;
  };
  return {
    post: async (request) => (await load()).post(request),
    close: async () => {
      if (client) await (await client).close();
    },
  };
}
