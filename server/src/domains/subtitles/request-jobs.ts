import type { DbOrTrx } from '../../platform/db/database.ts';
import type { RenderJobKind } from '../../platform/db/schema.ts';
import { RENDER_JOB, SUBTITLE_JOB } from '../../platform/queue/contracts.ts';
import { enqueue, jobKey } from '../../platform/queue/queue.ts';

// Apart from service.ts so that recovery.ts, which service.ts re-exports, queues requests without a cycle.

export const subtitleJobKey = (requestId: string) => jobKey(SUBTITLE_JOB, { requestId });

export const renderJobKey = (requestId: string) => jobKey(RENDER_JOB, { requestId });

/** The queue key of a request's job, by its kind. */
export const requestJobKey = (request: { id: string; kind: RenderJobKind }) => (request.kind === 'render' ? renderJobKey(request.id) : subtitleJobKey(request.id));

/** Queues (or queues again, to resume) the job of a subtitle request. */
export async function queueSubtitleJob(db: DbOrTrx, requestId: string): Promise<void> {
  await enqueue(db, SUBTITLE_JOB, { requestId });
}

/** Queues (or queues again) the job of a request of either kind. */
export async function queueRequestJob(db: DbOrTrx, request: { id: string; kind: RenderJobKind }): Promise<void> {
  if (request.kind === 'render') await enqueue(db, RENDER_JOB, { requestId: request.id });
  else await queueSubtitleJob(db, request.id);
}
