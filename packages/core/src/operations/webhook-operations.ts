import { parseQuery } from '../pagination/query-params.js';
import { createWebhook } from '../webhooks/create-webhook.js';
import { deleteWebhook } from '../webhooks/delete-webhook.js';
import { findOwnWebhook } from '../webhooks/find-webhook.js';
import { listDeliveries, listDeliveriesQuerySchema } from '../webhooks/list-deliveries.js';
import { listWebhooks, listWebhooksQuerySchema } from '../webhooks/list-webhooks.js';
import { redeliver } from '../webhooks/redeliver.js';
import { rotateWebhookSecret } from '../webhooks/rotate-webhook-secret.js';
import { sendTestEvent } from '../webhooks/send-test-event.js';
import { updateWebhook } from '../webhooks/update-webhook.js';
import {
  createWebhookBodySchema,
  parseCreateWebhookBody,
  parseUpdateWebhookBody,
  updateWebhookBodySchema,
} from '../webhooks/webhook-input.js';
import { deliverySchema, toWebhook, webhookSchema, webhookWithSecretSchema } from '../webhooks/webhook-view.js';
import { pathParam, requiredIfMatch } from './call-parts.js';
import { defineOperation, type ListOutcome, listOutcome, type OperationContext } from './operation.js';

// docs/webhooks.md "Managing webhooks". A webhook belongs to the account that
// made it: every operation acts on the caller's own webhooks only.

/** The webhook deps of an operation's deps; the private-target setting defaults to refusing. */
function webhookDeps(ctx: OperationContext) {
  const { clock, ids, allowPrivateWebhookTargets } = ctx.deps;
  return { clock, ids, allowPrivateTargets: allowPrivateWebhookTargets === true };
}

export const listWebhooksOperation = defineOperation({
  name: 'list_webhooks',
  method: 'GET',
  path: '/v1/webhooks',
  scope: 'webhooks:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['invalid_query_param'],
  schemas: { params: [], input: listWebhooksQuerySchema, output: webhookSchema, list: true },
  parse: (call) => parseQuery(listWebhooksQuerySchema, call.query),
  async run(ctx, query): Promise<ListOutcome> {
    return listOutcome(await listWebhooks(ctx.deps.store.db, ctx.principal, query));
  },
});

export const getWebhookOperation = defineOperation({
  name: 'get_webhook',
  method: 'GET',
  path: '/v1/webhooks/:id',
  scope: 'webhooks:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['webhook_not_found'],
  schemas: { params: ['id'], output: webhookSchema, list: false },
  parse: (call) => ({ id: pathParam(call.params, 'id') }),
  async run(ctx, { id }) {
    const row = await findOwnWebhook(ctx.deps.store.db, ctx.principal, id);
    return { status: 200, data: toWebhook(row), version: row.version };
  },
});

export const createWebhookOperation = defineOperation({
  name: 'create_webhook',
  method: 'POST',
  path: '/v1/webhooks',
  scope: 'webhooks:write',
  idempotencyKey: 'required',
  ifMatch: 'none',
  errors: ['validation_error'],
  schemas: { params: [], input: createWebhookBodySchema, output: webhookWithSecretSchema, list: false },
  parse: (call) => parseCreateWebhookBody(call.body),
  async run(ctx, body) {
    return ctx.write(async (trx) => {
      const webhook = await createWebhook(trx, webhookDeps(ctx), ctx.principal, body);
      return { status: 201, data: webhook, version: webhook.version, location: `/v1/webhooks/${webhook.id}` };
    });
  },
});

export const updateWebhookOperation = defineOperation({
  name: 'update_webhook',
  method: 'PATCH',
  path: '/v1/webhooks/:id',
  scope: 'webhooks:write',
  idempotencyKey: 'optional',
  ifMatch: 'required',
  errors: ['validation_error', 'webhook_not_found', 'version_conflict'],
  schemas: { params: ['id'], input: updateWebhookBodySchema, output: webhookSchema, list: false },
  parse: (call) => ({
    id: pathParam(call.params, 'id'),
    ifMatch: requiredIfMatch(call),
    patch: parseUpdateWebhookBody(call.body),
  }),
  async run(ctx, { id, ifMatch, patch }) {
    return ctx.write(async (trx) => {
      const webhook = await updateWebhook(trx, webhookDeps(ctx), ctx.principal, id, ifMatch, patch);
      return { status: 200, data: webhook, version: webhook.version };
    });
  },
});

export const deleteWebhookOperation = defineOperation({
  name: 'delete_webhook',
  method: 'DELETE',
  path: '/v1/webhooks/:id',
  scope: 'webhooks:write',
  // A retry with the same key answers the first deletion again rather than 404.
  idempotencyKey: 'optional',
  ifMatch: 'none',
  errors: ['webhook_not_found'],
  schemas: { params: ['id'], output: webhookSchema, list: false },
  parse: (call) => ({ id: pathParam(call.params, 'id') }),
  async run(ctx, { id }) {
    return ctx.write(async (trx) => ({ status: 200, data: await deleteWebhook(trx, ctx.principal, id) }));
  },
});

export const rotateWebhookSecretOperation = defineOperation({
  name: 'rotate_webhook_secret',
  method: 'POST',
  path: '/v1/webhooks/:id/rotate-secret',
  scope: 'webhooks:write',
  idempotencyKey: 'required',
  ifMatch: 'none',
  // version_conflict: another change to the webhook landed between its read and this one.
  errors: ['webhook_not_found', 'version_conflict'],
  schemas: { params: ['id'], output: webhookWithSecretSchema, list: false },
  parse: (call) => ({ id: pathParam(call.params, 'id') }),
  async run(ctx, { id }) {
    return ctx.write(async (trx) => {
      const webhook = await rotateWebhookSecret(trx, webhookDeps(ctx), ctx.principal, id);
      return { status: 200, data: webhook, version: webhook.version };
    });
  },
});

export const listWebhookDeliveriesOperation = defineOperation({
  name: 'list_webhook_deliveries',
  method: 'GET',
  path: '/v1/webhooks/:id/deliveries',
  scope: 'webhooks:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['invalid_query_param', 'webhook_not_found'],
  schemas: { params: ['id'], input: listDeliveriesQuerySchema, output: deliverySchema, list: true },
  parse: (call) => ({ id: pathParam(call.params, 'id'), query: parseQuery(listDeliveriesQuerySchema, call.query) }),
  async run(ctx, { id, query }): Promise<ListOutcome> {
    return listOutcome(await listDeliveries(ctx.deps.store.db, ctx.principal, id, query));
  },
});

export const redeliverWebhookDeliveryOperation = defineOperation({
  name: 'redeliver_webhook_delivery',
  method: 'POST',
  path: '/v1/webhooks/:id/deliveries/:delivery_id/redeliver',
  scope: 'webhooks:write',
  idempotencyKey: 'required',
  ifMatch: 'none',
  errors: ['webhook_not_found', 'delivery_not_found', 'webhook_inactive'],
  schemas: { params: ['id', 'delivery_id'], output: deliverySchema, list: false },
  parse: (call) => ({ id: pathParam(call.params, 'id'), deliveryId: pathParam(call.params, 'delivery_id') }),
  async run(ctx, { id, deliveryId }) {
    return ctx.write(async (trx) => ({
      status: 202,
      data: await redeliver(trx, webhookDeps(ctx), ctx.principal, id, deliveryId),
    }));
  },
});

export const testWebhookOperation = defineOperation({
  name: 'test_webhook',
  method: 'POST',
  path: '/v1/webhooks/:id/test',
  scope: 'webhooks:write',
  // Optional: a retry with the key queues no second test event.
  idempotencyKey: 'optional',
  ifMatch: 'none',
  errors: ['webhook_not_found', 'webhook_inactive'],
  schemas: { params: ['id'], output: deliverySchema, list: false },
  parse: (call) => ({ id: pathParam(call.params, 'id') }),
  async run(ctx, { id }) {
    return ctx.write(async (trx) => ({ status: 202, data: await sendTestEvent(trx, webhookDeps(ctx), ctx.principal, id) }));
  },
});
