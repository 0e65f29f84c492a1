import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/src/platform/db/schema.ts';
import { insertDeliveries, recordWebhookAnswer, selectDeliveryForUpdate } from '../../server/src/domains/notifications/queries.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/**
 * A try being claimed must not hold its webhook's row: other tries record their answers on it and
 * new events add deliveries to it at the same time (the full run deadlocked a claim against a try
 * recording its answer). Each statement below gives up at once if it has to wait for a lock, so
 * the test is about locks taken, not about how fast anything runs.
 */
/** A statement that has to wait for a row lock fails instead (any real wait is far longer). */
function giveUpOnWaiting(trx: Transaction<Database>) {
  return sql`set local lock_timeout = '50ms'`.execute(trx);
}

describe('webhook delivery locks', () => {
  let app: TestApp;
  let webhookId: string;
  let deliveryId: string;

  beforeAll(async () => {
    app = await createTestApp();
    const user = await app.deps.db.insertInto('users').values({ username: 'locks', password_hash: 'x' }).returning('id').executeTakeFirstOrThrow();
    const webhook = await app.deps.db
      .insertInto('webhooks')
      .values({ user_id: user.id, url: 'https://example.com/hook', kind: 'json', events: ['run.failed'] })
      .returning('id')
      .executeTakeFirstOrThrow();
    webhookId = webhook.id;
    const payload = { event: 'run.failed' as const, created_at: new Date().toISOString(), data: {} };
    const [delivery] = await insertDeliveries(app.deps.db, [webhookId], 'run.failed', payload);
    deliveryId = delivery!.id;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('claims a try without locking its webhook against answers and new deliveries', async () => {
    const payload = { event: 'run.failed' as const, created_at: new Date().toISOString(), data: {} };
    await app.deps.db.transaction().execute(async (claim) => {
      expect(await selectDeliveryForUpdate(claim, deliveryId)).toMatchObject({ id: deliveryId, webhook_id: webhookId });
      await app.deps.db.transaction().execute(async (other) => {
        await giveUpOnWaiting(other);
        await recordWebhookAnswer(other, webhookId, { last_status: 500, last_error: 'refused' });
        await insertDeliveries(other, [webhookId], 'run.failed', payload);
      });
    });
  });

  it('still keeps a second claim of the same try waiting', async () => {
    await app.deps.db.transaction().execute(async (claim) => {
      await selectDeliveryForUpdate(claim, deliveryId);
      const second = app.deps.db.transaction().execute(async (other) => {
        await giveUpOnWaiting(other);
        return selectDeliveryForUpdate(other, deliveryId);
      });
      await expect(second).rejects.toThrow(/lock timeout/);
    });
  });
});
