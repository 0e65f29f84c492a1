import { clipDetails, clipIdInput, clipList, IDLE_RENDER, listClipsInput, sortByRank, updateDescriptionsInput, type Clip, type ClipDetails, type ClipList, type ClipLoudness, type ClipRender, type ListClipsInput } from '@clipshift/shared';
import { z } from 'zod';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { recordLog } from '../../domains/logs/service.ts';
import { clipFileUrls } from '../files.ts';
import { authedProcedure, router, validated } from '../trpc.ts';
import { ClipPageColumns, clipEditOf, clipTrimRange, deleteClip, renderedFormat, findClipRow, listClips, updateDescriptions, type ClipListRow, type ClipRow } from '../../domains/clips/service.ts';
import { postedTo, postedToColumn, postedToOf, type PostedTo } from '../../domains/publishing/service.ts';
import { renderStateColumn, renderStateOf, renderStates } from '../../domains/subtitles/service.ts';

/** What other domains know of a clip: where it was posted, how its subtitle job stands. */
interface ClipActivity {
  posted?: PostedTo | undefined;
  render?: ClipRender | undefined;
}

/**
 * A clip as the API shows it, with the file URLs this server serves it under. Built as one object
 * literal: a page makes fifty of them, and copying each into another (spreads) showed in profiles.
 */
function toClip(row: ClipListRow, activity: ClipActivity): Clip {
  const urls = clipFileUrls(row.clip_id);
  const trim = clipTrimRange(row);
  return {
    clip_id: row.clip_id,
    title: row.title,
    streamer: row.streamer_name,
    broadcaster_name: row.broadcaster_name,
    created_at: row.twitch_created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    view_count: row.view_count,
    duration: row.duration,
    game_name: row.game_name,
    language: row.language,
    thumbnail: urls.thumbnail,
    thumbnail_url: row.thumbnail_url,
    video_url: urls.video_url,
    video: urls.video,
    format_type: renderedFormat(row),
    downloaded_format: row.format_type,
    subtitled: row.subtitled,
    custom_description: row.custom_description,
    selected_description: row.selected_description,
    metadata: { descriptions: sortByRank(row.descriptions) },
    hook_suggestion: row.hook_suggestion,
    posted_to: activity.posted ?? [],
    render: activity.render ?? IDLE_RENDER,
    edit: clipEditOf(row),
    trim_start: trim.start,
    trim_end: trim.end,
    output_duration: row.output_duration,
    loudness: loudnessOf(row),
    detected: row.detected,
    portrait_source: row.portrait_source,
    moment: row.moment,
    media_expired_at: row.media_expired_at?.toISOString() ?? null,
    video_bytes: row.size_bytes === null ? null : Number(row.size_bytes),
    width: row.width,
    height: row.height,
  };
}

/** Both columns are written together (a check constraint holds them so). */
function loudnessOf(row: ClipListRow): ClipLoudness | null {
  if (row.loudness_integrated_lufs === null || row.loudness_true_peak_dbtp === null) return null;
  return { integrated_lufs: row.loudness_integrated_lufs, true_peak_dbtp: row.loudness_true_peak_dbtp };
}

/**
 * Publishing's and subtitles' data of these clips, keyed by row id (composed here: clips sits
 * below both domains).
 */
async function activityOf(db: DbOrTrx, rowIds: readonly string[]): Promise<(rowId: string) => ClipActivity> {
  const [posted, renders] = await Promise.all([postedTo(db, rowIds), renderStates(db, rowIds)]);
  return (rowId) => ({ posted: posted.get(rowId), render: renders.get(rowId) });
}

/** Clips as the API shows them, with their posts and renders (the review inbox lists them too). */
export async function toClips(db: DbOrTrx, rows: readonly ClipListRow[]): Promise<Clip[]> {
  const activity = await activityOf(db, rows.map((row) => row.id));
  return rows.map((row) => toClip(row, activity(row.id)));
}

/**
 * Each clip's posts and render ride in the page's own statement, as columns that publishing and
 * subtitles build over their own tables (decision 0031): with the session and the count (which runs
 * beside the page), a page is three statements.
 */
const ACTIVITY_COLUMNS = new ClipPageColumns((clipRowId) => ({ posts: postedToColumn(clipRowId), latest_request: renderStateColumn(clipRowId) }));

async function clipListOf(db: DbOrTrx, userId: string, input: ListClipsInput): Promise<ClipList> {
  const { rows, total } = await listClips(db, userId, input, ACTIVITY_COLUMNS);
  const clips = rows.map((row) => toClip(row, { posted: postedToOf(row.posts), render: renderStateOf(row.latest_request) }));
  return { clips, total, page: input.page, limit: input.limit };
}

export async function toClipDetails(db: DbOrTrx, row: ClipRow): Promise<ClipDetails> {
  const activity = await activityOf(db, [row.id]);
  return { ...toClip(row, activity(row.id)), transcript: row.transcript };
}

export const clipsRouter = router({
  list: authedProcedure
    .input(listClipsInput)
    .output(validated(clipList))
    .query(({ ctx, input }) => clipListOf(ctx.deps.db, ctx.user.id, input)),

  details: authedProcedure
    .input(clipIdInput)
    .output(validated(clipDetails))
    .query(async ({ ctx, input }) => toClipDetails(ctx.deps.db, await findClipRow(ctx.deps.db, ctx.user.id, input.id))),

  updateDescriptions: authedProcedure
    .input(updateDescriptionsInput)
    .output(validated(clipDetails))
    .mutation(async ({ ctx, input }) => toClipDetails(ctx.deps.db, await updateDescriptions(ctx.deps.db, ctx.user.id, input))),

  delete: authedProcedure
    .input(clipIdInput)
    .output(validated(z.object({ message: z.string() })))
    .mutation(async ({ ctx, input }) => {
      const row = await deleteClip(ctx.deps.db, ctx.deps.storage, ctx.user.id, input.id);
      await recordLog(ctx.deps.db, ctx.deps.logger, { level: 'INFO', logger: 'clips', message: `Deleted clip "${row.title}" (${row.clip_id})`, userId: ctx.user.id });
      return { message: 'Clip deleted successfully' };
    }),
});
