import type { AppDeps } from '../../deps.ts';
import { recordLog } from '../../logs/service.ts';
import { WEBHOOK_DELIVERY_JOB } from '../../../platform/queue/contracts.ts';
import { defineJob, type JobContext } from '../../../platform/queue/define.ts';
import { enqueue } from '../../../platform/queue/queue.ts';
import { formatBody } from '../formats.ts';
import { recordWebhookAnswer, selectDeliveryForUpdate, updateDelivery } from '../queries.ts';
import { describeFailure, DELIVERY_TIMEOUT_MS, postToReceiver } from '../send.ts';
import { deliveryHeaders, receiverRefusal, webhookSecret } from '../service.ts';

/** The contract's "at most 5 tries". */
export const MAX_TRIES = 5;
/** Waits before tries 2 to 5: a receiver down for a deploy or an hour's outage still gets the event. */
export const RETRY_BACKOFF_MS: readonly number[] = [30_000, 2 * 60_000, 8 * 60_000, 30 * 60_000];

export interface DeliveryOptions {
  /** Waits before the tries after the first (tests shorten them; production uses RETRY_BACKOFF_MS). */
  backoffMs?: readonly number[];
  timeoutMs?: number;
}

/** `notifications/deliver`: one try of one delivery (see raiseEvent). */
export function webhookDeliveryJob(deps: AppDeps, options: DeliveryOptions = {}) {
  return defineJob({ ...WEBHOOK_DELIVERY_JOB, run: ({ deliveryId }, ctx) => deliverOnce(deps, deliveryId, options, ctx) });
}

/**
 * Claims the next try in a short transaction (the count goes up before anything is sent, so a crash
 * mid-try still counts towards the five), sends without holding the database, then records the
 * answer and either finishes or queues the next try with its backoff. A crash between sending and
 * recording sends again: at-least-once, and receivers de-duplicate by X-Clipshift-Delivery.
 */
async function deliverOnce(deps: AppDeps, deliveryId: string, options: DeliveryOptions, ctx: JobContext): Promise<void> {
  const backoff = options.backoffMs ?? RETRY_BACKOFF_MS;
  const claimed = await deps.db.transaction().execute(async (trx) => {
    const row = await selectDeliveryForUpdate(trx, deliveryId);
    if (!row || row.status !== 'pending') return null;
    if (row.attempts >= MAX_TRIES) {
      await updateDelivery(trx, deliveryId, { status: 'failed', next_attempt_at: null });
      return null;
    }
    await updateDelivery(trx, deliveryId, { attempts: row.attempts + 1, next_attempt_at: null });
    return { ...row, attempts: row.attempts + 1 };
  });
  if (!claimed) return;

  const body = formatBody(claimed.kind, claimed.payload);
  const headers = deliveryHeaders(claimed.kind, body, webhookSecret(claimed.secret_enc, deps.appSecret), claimed.id, claimed.payload.event);
  let status: number | null = null;
  let failure: string | null = null;
  try {
    const answer = await postToReceiver(claimed.url, body, headers, {
      allowPrivate: deps.env.WEBHOOK_ALLOW_PRIVATE,
      timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
      signal: ctx.signal,
    });
    status = answer.status;
    if (status < 200 || status >= 300) failure = receiverRefusal(status, answer.body);
  } catch (error) {
    if (ctx.signal.aborted) {
      // Not the receiver's failure: the app is stopping. The try is handed back uncounted.
      await deps.db.transaction().execute(async (trx) => {
        await updateDelivery(trx, deliveryId, { attempts: claimed.attempts - 1 });
        await enqueue(trx, WEBHOOK_DELIVERY_JOB, { deliveryId });
      });
      return;
    }
    failure = describeFailure(error);
  }

  const last = claimed.attempts >= MAX_TRIES;
  const nextAt = failure !== null && !last ? new Date(Date.now() + (backoff[claimed.attempts - 1] ?? backoff.at(-1) ?? 0)) : null;
  await deps.db.transaction().execute(async (trx) => {
    await updateDelivery(trx, deliveryId, {
      last_status: status,
      last_error: failure,
      ...(failure === null ? { status: 'delivered', delivered_at: new Date() } : last ? { status: 'failed' } : { next_attempt_at: nextAt }),
    });
    await recordWebhookAnswer(trx, claimed.webhook_id, { last_status: status, last_error: failure });
    if (nextAt) await enqueue(trx, WEBHOOK_DELIVERY_JOB, { deliveryId }, { runAt: nextAt });
  });
  if (failure !== null) {
    ctx.logger.info({ deliveryId, attempt: claimed.attempts, status }, last ? 'webhook delivery failed for good' : 'webhook delivery failed; retrying later');
  }
  if (failure !== null && last) {
    await recordLog(deps.db, deps.logger, {
      level: 'WARNING',
      logger: 'notifications',
      message: `The ${claimed.payload.event} notification to ${new URL(claimed.url).host} failed after ${MAX_TRIES} tries: ${failure}`,
      userId: claimed.user_id,
    });
  }
}
