import type { AppDeps } from '../deps.ts';
import { recordLog } from '../logs/service.ts';
import { queueUploads } from './uploads.ts';

/** Queues a new clip's upload to every account linked to its streamer, with its best description. */
export async function autoPublish(deps: AppDeps, clipRowId: string, userId: string, streamerId: string): Promise<void> {
  const [clip, links] = await Promise.all([
    deps.db.selectFrom('clips').select(['title', 'descriptions']).where('id', '=', clipRowId).executeTakeFirstOrThrow(),
    deps.db.selectFrom('streamer_tiktok_accounts').select('tiktok_account_id').where('streamer_id', '=', streamerId).execute(),
  ]);
  const description = clip.descriptions[0]?.description ?? clip.title;
  if (!links.length) {
    await recordLog(deps.db, deps.logger, { level: 'WARNING', logger: 'tiktok', message: `Auto-publish is on but no TikTok account is linked: "${clip.title}" was not posted`, userId });
    return;
  }
  const rows = await deps.db.transaction().execute((trx) =>
    queueUploads(trx, { userId, clipRowId, accountIds: links.map((link) => link.tiktok_account_id), description, mode: deps.env.TIKTOK_POST_MODE }, { skipExisting: true }),
  );
  await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'tiktok', message: `Auto-publishing "${clip.title}" to ${rows.length} TikTok account${rows.length === 1 ? '' : 's'}`, userId });
}
