import { sql, type Selectable, type Updateable } from 'kysely';
import type { WebhookEvent, WebhookKind } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import type { WebhookDeliveriesTable, WebhookPayload, WebhooksTable } from '../../platform/db/schema.ts';

/** SQL of the tables the notifications domain owns: webhooks and webhook_deliveries. */

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

// The secret stays out of every list: only delivery reads it.
const PUBLIC_COLUMNS = ['id', 'url', 'kind', 'events', 'created_at', 'last_status', 'last_error'] as const;

export function selectWebhooks(db: DbOrTrx, userId: string) {
  return db.selectFrom('webhooks').select(PUBLIC_COLUMNS).where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
}

export function selectWebhook(db: DbOrTrx, userId: string, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

export async function countWebhooks(db: DbOrTrx, userId: string): Promise<number> {
  const row = await db.selectFrom('webhooks').select((eb) => eb.fn.countAll<string>().as('count')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Serialises webhook creation for one user until the transaction ends, so that two creations at
 * once cannot both pass the per-user cap. An advisory lock rather than the user's row: users
 * belongs to auth, and notifications touches only its own tables (domains/ownership.ts).
 */
export async function lockUserWebhooks(db: DbOrTrx, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`webhooks:${userId}`}))`.execute(db);
}

export function insertWebhook(db: DbOrTrx, values: { user_id: string; url: string; kind: WebhookKind; events: WebhookEvent[]; secret_enc: string | null }) {
  return db
    .insertInto('webhooks')
    .values({ ...values, events: sql<WebhookEvent[]>`${values.events}::text[]` })
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function deleteWebhookRow(db: DbOrTrx, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function recordWebhookAnswer(db: DbOrTrx, id: string, answer: { last_status: number | null; last_error: string | null }): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({ ...answer, last_delivery_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/** The user's webhooks that asked for this event. */
export function selectSubscribers(db: DbOrTrx, userId: string, event: WebhookEvent) {
  return db
    .selectFrom('webhooks')
    .select('id')
    .where('user_id', '=', userId)
    .where(sql<boolean>`${event} = any(events)`)
    .execute();
}

export function insertDeliveries(db: DbOrTrx, webhookIds: readonly string[], event: WebhookEvent, payload: WebhookPayload) {
  return db
    .insertInto('webhook_deliveries')
    .values(webhookIds.map((webhook_id) => ({ webhook_id, event, payload: JSON.stringify(payload) })))
    .returning('id')
    .execute();
}

/**
 * A delivery with its webhook, the delivery's row locked: two workers taking the same try
 * (at-least-once queues) send it once. Only the delivery's row: locking the webhook's row too would
 * block every new delivery to it (their foreign key takes a key-share lock) and deadlock against a
 * try recording its answer on the webhook.
 */
export function selectDeliveryForUpdate(db: DbOrTrx, id: string) {
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
    .select([
      'webhook_deliveries.id',
      'webhook_deliveries.status',
      'webhook_deliveries.attempts',
      'webhook_deliveries.payload',
      'webhooks.id as webhook_id',
      'webhooks.user_id',
      'webhooks.url',
      'webhooks.kind',
      'webhooks.secret_enc',
    ])
    .where('webhook_deliveries.id', '=', id)
    .forUpdate('webhook_deliveries')
    .executeTakeFirst();
}

export async function updateDelivery(db: DbOrTrx, id: string, values: Updateable<WebhookDeliveriesTable>): Promise<void> {
  await db.updateTable('webhook_deliveries').set(values).where('id', '=', id).execute();
}
