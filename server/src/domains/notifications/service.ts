import { randomBytes, randomUUID } from 'node:crypto';
import { WEBHOOKS_PER_USER_MAX, type CreatedWebhook, type CreateWebhookInput, type Webhook, type WebhookEvent, type WebhookKind } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import { recordLog } from '../logs/service.ts';
import { decryptSecret, encryptSecret } from '../../platform/crypto.ts';
import type { DbOrTrx } from '../../platform/db/database.ts';
import type { WebhookPayload } from '../../platform/db/schema.ts';
import { badGateway, badRequest, notFound } from '../../platform/errors.ts';
import { WEBHOOK_DELIVERY_JOB } from '../../platform/queue/contracts.ts';
import { enqueue } from '../../platform/queue/queue.ts';
import { assertPublicUrl, PRIVATE_ADDRESS_MESSAGE, PrivateAddressRefused } from './address-guard.ts';
import { DELIVERY_HEADER, EVENT_HEADER, formatBody, SIGNATURE_HEADER, signBody, type WebhookEventData } from './formats.ts';
import {
  countWebhooks,
  deleteWebhookRow,
  insertDeliveries,
  insertWebhook,
  lockUserWebhooks,
  recordWebhookAnswer,
  selectSubscribers,
  selectWebhook,
  selectWebhooks,
} from './queries.ts';
import { describeFailure, postToReceiver } from './send.ts';

export type { WebhookEventData };
export { PRIVATE_ADDRESS_MESSAGE };

/** Raised by the review inbox when a clip waits for a person (the review feature calls raiseEvent with it). */
export const CLIP_REVIEW_EVENT = 'clip.review' satisfies WebhookEvent;

const webhookNotFound = () => notFound('Webhook not found');
const SECRET_FOR_JSON_ONLY = 'secret applies to json webhooks only (Discord and Slack webhooks are not signed)';

/**
 * Tells the user's webhooks that asked for `event`: one delivery row each and its job, queued with
 * the caller's writes (pass the open transaction), so an event is sent exactly when the work that
 * raised it commits. Nothing is sent here: a slow or dead receiver cannot delay or fail the caller.
 */
export async function raiseEvent<E extends WebhookEvent>(db: DbOrTrx, userId: string, event: E, data: WebhookEventData[E], now = new Date()): Promise<number> {
  const subscribers = await selectSubscribers(db, userId, event);
  if (!subscribers.length) return 0;
  const payload: WebhookPayload = { event, created_at: now.toISOString(), data: { ...data } };
  const deliveries = await insertDeliveries(
    db,
    subscribers.map((row) => row.id),
    event,
    payload,
  );
  for (const delivery of deliveries) await enqueue(db, WEBHOOK_DELIVERY_JOB, { deliveryId: delivery.id });
  return deliveries.length;
}

type WebhookColumns = Awaited<ReturnType<typeof selectWebhooks>>[number];

function toWebhook(row: WebhookColumns): Webhook {
  return { ...row, created_at: row.created_at.toISOString() };
}

/** The user's webhooks, oldest first; secrets are never part of them. */
export async function listWebhooks(db: DbOrTrx, userId: string): Promise<Webhook[]> {
  return (await selectWebhooks(db, userId)).map(toWebhook);
}

/** The host a URL names, for logs: Discord's and Slack's webhook URLs carry their token in the path. */
const hostForLogs = (url: string) => new URL(url).host;

/**
 * Saves a webhook. json webhooks get the secret given, or a generated one; it is answered this once
 * (only its ciphertext is stored, and no answer or log ever shows it again).
 */
export async function createWebhook(deps: AppDeps, userId: string, input: CreateWebhookInput): Promise<CreatedWebhook> {
  assertPublicUrl(input.url, deps.env.WEBHOOK_ALLOW_PRIVATE);
  if (input.kind !== 'json' && input.secret !== undefined) throw badRequest(SECRET_FOR_JSON_ONLY);
  const secret = input.kind === 'json' ? (input.secret ?? randomBytes(32).toString('hex')) : null;
  const events = [...new Set(input.events)];
  const row = await deps.db.transaction().execute(async (trx) => {
    await lockUserWebhooks(trx, userId);
    if ((await countWebhooks(trx, userId)) >= WEBHOOKS_PER_USER_MAX) throw badRequest(`You can have at most ${WEBHOOKS_PER_USER_MAX} webhooks: delete one first`);
    return insertWebhook(trx, { user_id: userId, url: input.url, kind: input.kind, events, secret_enc: secret === null ? null : encryptSecret(secret, deps.appSecret) });
  });
  await recordLog(deps.db, deps.logger, {
    level: 'INFO',
    logger: 'notifications',
    message: `Webhook added: ${input.kind} to ${hostForLogs(input.url)} for ${events.join(', ')}`,
    userId,
  });
  return { ...toWebhook(row), secret };
}

export async function deleteWebhook(deps: AppDeps, userId: string, id: string | null): Promise<void> {
  const row = id === null ? undefined : await selectWebhook(deps.db, userId, id);
  if (!row || !(await deleteWebhookRow(deps.db, userId, row.id))) throw webhookNotFound();
  await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'notifications', message: `Webhook to ${hostForLogs(row.url)} deleted`, userId });
}

/** The headers of one try: the delivery id (receivers de-duplicate retries by it) and, for json, the signature. */
export function deliveryHeaders(kind: WebhookKind, body: string, secret: string | null, deliveryId: string, event: string): Record<string, string> {
  return {
    [DELIVERY_HEADER]: deliveryId,
    [EVENT_HEADER]: event,
    ...(kind === 'json' && secret !== null ? { [SIGNATURE_HEADER]: signBody(body, secret) } : {}),
  };
}

export function webhookSecret(secretEnc: string | null, appSecret: string): string | null {
  return secretEnc === null ? null : decryptSecret(secretEnc, appSecret);
}

/**
 * Sends a `test` event now, in the webhook's format, and answers the receiver's HTTP status
 * (whatever it is). A receiver that cannot be reached is a 502 with the reason; a private one a 400.
 */
export async function testWebhook(deps: AppDeps, userId: string, id: string | null, signal?: AbortSignal): Promise<{ status: number }> {
  const row = id === null ? undefined : await selectWebhook(deps.db, userId, id);
  if (!row) throw webhookNotFound();
  assertPublicUrl(row.url, deps.env.WEBHOOK_ALLOW_PRIVATE);
  const payload: WebhookPayload = { event: 'test', created_at: new Date().toISOString(), data: { message: 'Test notification from Clipshift', webhook_id: row.id } };
  const body = formatBody(row.kind, payload);
  const headers = deliveryHeaders(row.kind, body, webhookSecret(row.secret_enc, deps.appSecret), randomUUID(), 'test');
  try {
    const answer = await postToReceiver(row.url, body, headers, { allowPrivate: deps.env.WEBHOOK_ALLOW_PRIVATE, signal });
    const ok = answer.status >= 200 && answer.status < 300;
    await recordWebhookAnswer(deps.db, row.id, { last_status: answer.status, last_error: ok ? null : receiverRefusal(answer.status, answer.body) });
    return { status: answer.status };
  } catch (error) {
    if (error instanceof PrivateAddressRefused) throw badRequest(error.message);
    const reason = describeFailure(error);
    await recordWebhookAnswer(deps.db, row.id, { last_status: null, last_error: reason });
    throw badGateway(reason, error);
  }
}

/** last_error for a receiver that answered with something other than 2xx. */
export function receiverRefusal(status: number, body: string): string {
  const said = body.trim().replace(/\s+/g, ' ');
  return `The receiver answered ${status}${said ? `: ${said}` : ''}`;
}
