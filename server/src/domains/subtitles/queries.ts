import { expressionBuilder, type AliasableExpression, type Expression, type Selectable, type Updateable } from 'kysely';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import { anyUuid } from '../../platform/db/arrays.ts';
import type { DbOrTrx } from '../../platform/db/database.ts';
import type { Database, RenderJobKind, SubtitleRequestsTable, SubtitleRequestStatus, SubtitleStage } from '../../platform/db/schema.ts';
import type { WorkerIdentity } from '../../platform/identity.ts';

/** SQL of the subtitle_requests table, which the subtitles domain owns. */

type SubtitleRequestRow = Selectable<SubtitleRequestsTable>;

/** A new queued request; the partial unique index refuses a second one for a clip while one is going. */
export async function insertSubtitleRequest(
  db: DbOrTrx,
  values: { user_id: string; clip_row_id: string; model: string | null; kind?: RenderJobKind; retranscribe?: boolean },
): Promise<string> {
  const row = await db.insertInto('subtitle_requests').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function selectSubtitleRequest(db: DbOrTrx, requestId: string): Promise<SubtitleRequestRow | undefined> {
  return db.selectFrom('subtitle_requests').selectAll().where('id', '=', requestId).executeTakeFirst();
}

export function selectSubtitleRequestsIn(db: DbOrTrx, statuses: readonly SubtitleRequestStatus[]): Promise<SubtitleRequestRow[]> {
  return db.selectFrom('subtitle_requests').selectAll().where('status', 'in', statuses).execute();
}

/**
 * Moves the request from one status to the next, with more columns changed on the way; false when it
 * was no longer in `from` (another process got there first). `owner` narrows it to the claimant.
 */
export async function moveSubtitleRequest(
  db: DbOrTrx,
  requestId: string,
  change: { from: SubtitleRequestStatus; owner?: string; set: Updateable<SubtitleRequestsTable> },
): Promise<boolean> {
  let query = db.updateTable('subtitle_requests').set(change.set).where('id', '=', requestId).where('status', '=', change.from);
  if (change.owner !== undefined) query = query.where('owner_instance', '=', change.owner);
  const moved = await query.executeTakeFirst();
  return moved.numUpdatedRows > 0n;
}

/** Takes a queued request for this process; undefined when it is no longer queued. */
export function claimQueuedRequest(db: DbOrTrx, requestId: string, identity: WorkerIdentity, stage: SubtitleStage = 'transcribing'): Promise<SubtitleRequestRow | undefined> {
  return db
    .updateTable('subtitle_requests')
    .set({ status: 'running', stage, percent: 0, owner_host: identity.host, owner_pid: identity.pid, owner_instance: identity.instance, heartbeat_at: new Date() })
    .where('id', '=', requestId)
    .where('status', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
}

/** The kind of the clip's queued or running request, if one is going. */
export async function selectActiveKind(db: DbOrTrx, clipRowId: string): Promise<RenderJobKind | undefined> {
  const row = await db.selectFrom('subtitle_requests').select('kind').where('clip_row_id', '=', clipRowId).where('status', 'in', ['queued', 'running']).executeTakeFirst();
  return row?.kind;
}

/** Ends the clip's queued or running re-render as stopped; false when none was going. */
export async function stopActiveRender(db: DbOrTrx, clipRowId: string, message: string): Promise<boolean> {
  return (await stopActiveRenders(db, [clipRowId], message)) > 0;
}

/** Ends the queued or running re-renders of these clips as stopped, in one statement; how many it stopped. */
export async function stopActiveRenders(db: DbOrTrx, clipRowIds: readonly string[], message: string): Promise<number> {
  if (!clipRowIds.length) return 0;
  const stopped = await db
    .updateTable('subtitle_requests')
    .set({ status: 'stopped', message, finished_at: new Date() })
    .where('clip_row_id', '=', anyUuid(clipRowIds))
    .where('kind', '=', 'render')
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return Number(stopped.numUpdatedRows);
}

/** Saves the heartbeat of a request this process runs; its status, or undefined once it is gone. */
export async function beatRequest(db: DbOrTrx, requestId: string): Promise<SubtitleRequestStatus | undefined> {
  const row = await db.updateTable('subtitle_requests').set({ heartbeat_at: new Date() }).where('id', '=', requestId).returning('status').executeTakeFirst();
  return row?.status;
}

/** A running request's stage and percent (a finished one keeps its final state). */
export async function updateRunningProgress(db: DbOrTrx, requestId: string, value: { stage: SubtitleStage; percent: number }): Promise<void> {
  await db.updateTable('subtitle_requests').set(value).where('id', '=', requestId).where('status', '=', 'running').execute();
}

/** Each clip's latest request (its render state), keyed by clip row id. */
export function selectLatestRequests(db: DbOrTrx, clipRowIds: readonly string[]) {
  return db
    .selectFrom('subtitle_requests')
    .distinctOn('clip_row_id')
    .select(['clip_row_id', 'status', 'stage', 'percent', 'message'])
    .where('clip_row_id', '=', anyUuid(clipRowIds))
    .orderBy('clip_row_id')
    .orderBy('created_at', 'desc')
    .execute();
}

/** A clip's latest request as a statement of another domain carries it (null: the clip has none). */
export type LatestRequest = Pick<SubtitleRequestRow, 'status' | 'stage' | 'percent' | 'message'>;

/**
 * The clip's latest request as one JSON value, for a statement that lists clips to carry per row (the
 * clip list's page): one index lookup per row, instead of a statement of its own per page.
 */
export function latestRequestColumn(clipRowId: Expression<string>): AliasableExpression<LatestRequest | null> {
  const eb = expressionBuilder<Database, never>();
  return eb
    .selectFrom('subtitle_requests as r')
    .select((request) => jsonBuildObject({ status: request.ref('r.status'), stage: request.ref('r.stage'), percent: request.ref('r.percent'), message: request.ref('r.message') }).as('request'))
    .where('r.clip_row_id', '=', clipRowId)
    .orderBy('r.created_at', 'desc')
    .limit(1)
    .$asScalar();
}

export async function updateSubtitleRequest(db: DbOrTrx, requestId: string, values: Updateable<SubtitleRequestsTable>): Promise<void> {
  await db.updateTable('subtitle_requests').set(values).where('id', '=', requestId).execute();
}
