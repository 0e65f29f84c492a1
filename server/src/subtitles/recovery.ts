import type { AppDeps } from '../deps.ts';
import { ownerIsGone, type WorkerIdentity } from '../worker/identity.ts';

/** Subtitle requests whose worker died end as failed, so the clip can be subtitled again. */
export async function recoverInterruptedSubtitles(deps: AppDeps, self: WorkerIdentity, now = Date.now()): Promise<number> {
  const running = await deps.db.selectFrom('subtitle_requests').selectAll().where('status', '=', 'running').execute();
  let recovered = 0;
  for (const request of running.filter((row) => ownerIsGone(row, self, now))) {
    const result = await deps.db
      .updateTable('subtitle_requests')
      .set({ status: 'failed', message: 'Subtitle generation was interrupted by a restart. Please try again.', finished_at: new Date(now) })
      .where('id', '=', request.id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    recovered += Number(result.numUpdatedRows);
  }
  return recovered;
}
