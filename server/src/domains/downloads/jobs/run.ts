import { rm } from 'node:fs/promises';
import path from 'node:path';
import { countSkips, describeSkips, periodStart, selectClips, skipPhrase, type SelectionRules, type SkipCounts, type SkippedClip } from '@clipshift/shared';
import type { AppDeps } from '../../deps.ts';
import type { RunProgressItem, RunStatus } from '../../../platform/db/schema.ts';
import { instanceWorkDir } from '../../clips/service.ts';
import { libraryClipIds } from '../../clips/service.ts';
import { recordLog } from '../../logs/service.ts';
import { raiseEvent } from '../../notifications/service.ts';
import type { TwitchClient, TwitchClip } from '../../../engines/providers/twitch/index.ts';
import { findStreamerById, saveTwitchUser, selectionOf, type StreamerRow } from '../../streamers/service.ts';
import { startBeating } from '../../../platform/beat.ts';
import { publicReason } from '../../../platform/public-reason.ts';
import type { WorkerIdentity } from '../../../platform/identity.ts';
import { defineJob, type JobContext, type JobDefinition } from '../../../platform/queue/define.ts';
import { RUN_JOB } from '../../../platform/queue/contracts.ts';
import { clipWorkDir, processClip, type ClipJob } from '../process-clip.ts';
import { officialFilesForRun } from '../official-files.ts';
import { ACTIVE_RUN, beatRun, claimActiveRun, countRunClip, endActiveRun, releaseRun, updateRun } from '../queries.ts';
import { queueRunJob, type RunRow } from '../service.ts';

/** How often a running job reports it is alive, saves progress and looks for a stop request. */
export const HEARTBEAT_MS = 1_000;
/** How many library clips of one broadcaster to skip past at most when listing. */
const MAX_SKIP = 1_000;
/**
 * Clips one run lists at most before its rules (on top of the library's): the rules may turn most
 * away, so far more than the clips wanted, but never an unbounded walk through Twitch.
 */
const MIN_LISTED = 2_000;
const MAX_LISTED = 5_000;
/** Skipped clips named one by one in the log per run; the summary line counts them all. */
const SKIP_DETAILS = 10;

class RunStopped extends Error {}

interface RunTaskOptions {
  identity: WorkerIdentity;
}

/**
 * Claims the run for this process; null when it is no longer busy (already stopped or recovered).
 * A run resumed after a restart retries the clips that had failed, so their count starts again.
 */
async function claimRun(deps: AppDeps, runId: string, identity: WorkerIdentity): Promise<RunRow | null> {
  return (await claimActiveRun(deps.db, runId, identity)) ?? null;
}

/** Runs `work` over `items` with at most `limit` at once; stops taking new items once aborted. */
async function forEachLimited<T>(items: readonly T[], limit: number, signal: AbortSignal, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length && !signal.aborted) {
      const item = items[next]!;
      next += 1;
      await work(item);
    }
  });
  await Promise.all(lanes);
}

interface Plan {
  clips: TwitchClip[];
  skipped: SkipCounts;
}

/**
 * The clips to process: the streamer's selection rules over Twitch's listing, skipping ones already
 * in the user's library, as many as the run still lacks (a run resumed after a restart has some
 * already). clip_limit counts picked clips, so the listing goes on past refused ones, up to a bound.
 */
async function planClips(deps: AppDeps, twitch: TwitchClient, run: RunRow, streamer: StreamerRow, signal: AbortSignal): Promise<Plan> {
  if (run.clip_ids) return planNamedClips(deps, twitch, run, signal);
  const wanted = Math.max(0, run.clip_limit - run.clips_downloaded);
  let broadcasterId = streamer.twitch_user_id;
  if (!broadcasterId) {
    const user = await twitch.getUserByLogin(streamer.name, signal);
    if (!user) throw new Error(`Twitch user ${streamer.name} does not exist`);
    broadcasterId = user.id;
    await saveTwitchUser(deps.db, streamer.id, user);
  }
  const library = new Set(await libraryClipIds(deps.db, run.user_id, broadcasterId, MAX_SKIP));
  if (wanted === 0) return { clips: [], skipped: {} };
  const now = Date.now();
  const rules: SelectionRules = { ...selectionOf(streamer), limit: wanted, library, now };
  const bound = Math.min(MAX_LISTED, Math.max(MIN_LISTED, 10 * wanted) + library.size);
  // Twitch lists most viewed first (per window), so ranking by views can stop once the rules pick
  // enough; velocity can favour a fresh clip anywhere in the period, so it looks at all of it.
  const enough = rules.rank_by === 'views' ? (clips: readonly TwitchClip[]) => selectClips(clips, rules).picked.length >= wanted : undefined;
  const listed = await twitch.getTopClips(broadcasterId, { limit: bound, since: periodStart(rules.clip_period, now) ?? undefined, enough, featuredOnly: rules.featured_only, signal });
  const { picked, skipped } = selectClips(listed, rules);
  if (listed.length >= bound && picked.length < wanted) {
    await recordLog(deps.db, deps.logger, {
      level: 'WARNING',
      logger: 'downloads',
      message: `Looked at ${bound} clips of ${streamer.name}, the most one run lists, and found ${picked.length} of ${wanted} that the selection rules accept`,
      userId: run.user_id,
    });
  }
  await logSkips(deps, run, streamer, rules, skipped);
  return { clips: picked, skipped: countSkips(skipped) };
}

/**
 * A moment's run takes the clips it names, whatever the selection rules say (the moment chose
 * them), less those the library already has. The moment's job starts the run once Twitch lists
 * its clip; one that is gone again by then fails the run with that reason.
 */
async function planNamedClips(deps: AppDeps, twitch: TwitchClient, run: RunRow, signal: AbortSignal): Promise<Plan> {
  const ids = run.clip_ids ?? [];
  const listed = await twitch.getClipsByIds(ids, signal);
  const missing = ids.filter((id) => !listed.some((clip) => clip.id === id));
  if (missing.length) throw new Error(`Twitch no longer lists clip ${missing.join(', ')}`);
  const library = new Set(await libraryClipIds(deps.db, run.user_id, listed[0]?.broadcaster_id ?? '', MAX_SKIP));
  return { clips: listed.filter((clip) => !library.has(clip.id)), skipped: {} };
}

/** One summary line per run, and the first few skipped clips by name, so the log stays short. */
async function logSkips(deps: AppDeps, run: RunRow, streamer: StreamerRow, rules: SelectionRules, skipped: readonly SkippedClip<TwitchClip>[]): Promise<void> {
  if (skipped.length === 0) return;
  const summary = `Skipped ${skipped.length} clip${skipped.length === 1 ? '' : 's'} of ${streamer.name}: ${describeSkips(countSkips(skipped), rules)}`;
  await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'downloads', message: summary, userId: run.user_id });
  for (const { clip, reason, keptId } of skipped.slice(0, SKIP_DETAILS)) {
    const kept = keptId ? ` (${keptId} kept)` : '';
    await recordLog(deps.db, deps.logger, {
      level: 'DEBUG',
      logger: 'downloads',
      message: `Skipped clip "${clip.title}" (${clip.id}, ${clip.view_count} views, by ${clip.creator_name}) of ${streamer.name}: ${skipPhrase(reason, rules)}${kept}`,
      userId: run.user_id,
    });
  }
  if (skipped.length > SKIP_DETAILS) deps.logger.debug({ runId: run.id, more: skipped.length - SKIP_DETAILS }, 'further skipped clips not logged one by one');
}

/**
 * Hands an interrupted run back to the queue (the app is stopping, or this worker's runner is being
 * replaced): ownerless again with a fresh job, so the next worker resumes it, skipping the clips the
 * library already has. Returns false if the run is no longer this process's to hand back.
 */
async function putBack(deps: AppDeps, runId: string, identity: WorkerIdentity): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    if (!(await releaseRun(trx, runId, identity.instance))) return false;
    await queueRunJob(trx, runId);
    return true;
  });
}

/**
 * The `downloads/run` task: one streamer's run from listing to its final status. Clips are processed
 * in parallel (the run's concurrency, itself bounded by WORKER_CONCURRENCY); one clip failing is
 * logged and does not fail the others. A heartbeat saves progress and turns a stop request into
 * an abort that reaches transfers and ffmpeg at once; graphile-worker's abort signal (the app is
 * stopping) does the same, and the run is then put back in the queue to resume.
 */
export function downloadRunJob(deps: AppDeps, options: RunTaskOptions): JobDefinition<{ runId: string }> {
  return defineJob({ ...RUN_JOB, run: ({ runId }, ctx) => executeRun(deps, options, runId, ctx) });
}

async function executeRun(deps: AppDeps, options: RunTaskOptions, runId: string, ctx: JobContext): Promise<void> {
  const run = await claimRun(deps, runId, options.identity);
  if (!run) return;
  const streamer = await findStreamerById(deps.db, run.streamer_id);
  if (!streamer) throw new Error(`streamer ${run.streamer_id} of run ${runId} is gone`);
  let stopRequested = false;
  const requestStop = () => {
    stopRequested = true;
    ctx.stop(new RunStopped('stopped'));
  };
  const { signal } = ctx;
  const progress = new Map<string, RunProgressItem>();
  let lost = false;

  const beat = async () => {
    const status = await beatRun(deps.db, runId, options.identity.instance, [...progress.values()]);
    // Gone, or ended by someone else (recovery judged this process dead): that one has the final word.
    if (!status || !(ACTIVE_RUN as readonly RunStatus[]).includes(status)) lost = true;
    if (lost || status === 'stopping') requestStop();
  };
  if (run.status === 'stopping') requestStop();
  const beating = startBeating(beat, HEARTBEAT_MS, (error) => deps.logger.warn({ err: error }, 'run heartbeat failed'));

  const runWorkDir = path.join(instanceWorkDir(deps.env.dataDir, options.identity.instance), runId);
  /** `error` is what the user reads; `cause` (the whole error) goes to the server's log. */
  let outcome: { status: RunStatus; error: string | null; message: string; level: 'INFO' | 'WARNING' | 'ERROR'; cause?: unknown };
  let downloaded = 0;
  let failed = 0;
  let firstFailure: string | null = null;
  try {
    if (!deps.twitch) throw new Error('Twitch is not configured: set TWITCH_CLIENT_ID and TWITCH_CLIENT_SECRET');
    const twitch = deps.twitch;
    const { clips, skipped } = await planClips(deps, twitch, run, streamer, signal);
    const gameIds = [...new Set(clips.map((clip) => clip.game_id).filter(Boolean))];
    const games = await twitch.getGames(gameIds, signal);
    await updateRun(deps.db, runId, { clips_total: run.clips_downloaded + clips.length, skipped: JSON.stringify(skipped) });
    const officialFiles = officialFilesForRun(deps, run.user_id, streamer.name);

    await forEachLimited(clips, run.concurrency, signal, async (clip) => {
      progress.set(clip.id, { clip_id: clip.id, title: clip.title, stage: 'queued', percent: 0 });
      const workDir = clipWorkDir(deps.env.dataDir, options.identity.instance, runId, clip.id);
      const job: ClipJob = {
        userId: run.user_id,
        runId,
        streamer,
        clip,
        gameName: games.get(clip.game_id) ?? null,
        vertical: run.vertical,
        moment: run.moment,
        signal,
        workDir,
        officialFiles,
        onStage: (stage, percent) => progress.set(clip.id, { clip_id: clip.id, title: clip.title, stage, percent }),
      };
      try {
        const result = await processClip(deps, twitch, job);
        if (result.inserted) {
          downloaded += 1;
          await countRunClip(deps.db, runId, 'clips_downloaded');
          if (streamer.auto_publish && streamer.publish_mode === 'review') {
            await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'downloads', message: `Clip "${clip.title}" (${clip.id}) of ${streamer.name} is waiting for review`, userId: run.user_id });
          }
        }
      } catch (error) {
        if (signal.aborted) return;
        failed += 1;
        const reason = publicReason(error);
        firstFailure ??= reason;
        await countRunClip(deps.db, runId, 'clips_failed');
        await recordLog(deps.db, deps.logger, {
          level: 'ERROR',
          logger: 'downloads',
          message: `Clip "${clip.title}" (${clip.id}) of ${streamer.name} failed: ${reason}`,
          userId: run.user_id,
          error,
        });
      } finally {
        progress.delete(clip.id);
        await rm(workDir, { recursive: true, force: true });
      }
    });

    if (signal.aborted) throw new RunStopped('stopped');
    const total = run.clips_downloaded + downloaded;
    if (clips.length > 0 && total === 0 && failed > 0) {
      outcome = { status: 'error', error: `Every clip failed. First reason: ${firstFailure}`, message: `Download for ${streamer.name} failed: every clip failed (${firstFailure})`, level: 'ERROR' };
    } else {
      const note = failed ? ` (${failed} failed)` : '';
      const none = clips.length === 0 && total === 0 ? ': no new clips found' : '';
      outcome = { status: 'completed', error: null, message: `Downloaded ${total} clip${total === 1 ? '' : 's'} for ${streamer.name}${note}${none}`, level: failed ? 'WARNING' : 'INFO' };
    }
  } catch (error) {
    if (signal.aborted) {
      const total = run.clips_downloaded + downloaded;
      outcome = { status: 'stopped', error: null, message: `Download for ${streamer.name} stopped after ${total} clip${total === 1 ? '' : 's'}`, level: 'INFO' };
    } else {
      const reason = publicReason(error);
      outcome = { status: 'error', error: reason, message: `Download for ${streamer.name} failed: ${reason}`, level: 'ERROR', cause: error };
    }
  } finally {
    await beating.stop();
    await rm(runWorkDir, { recursive: true, force: true });
  }
  if (lost) return; // recovered elsewhere: that process owns the final word
  if (ctx.shutdown.aborted && !stopRequested && (await putBack(deps, runId, options.identity))) {
    await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'downloads', message: `Download for ${streamer.name} paused by a restart; it resumes when the app is back`, userId: run.user_id });
    return;
  }
  await deps.db.transaction().execute(async (trx) => {
    const ended = await endActiveRun(trx, runId, options.identity.instance, { status: outcome.status, error: outcome.error, completed_at: new Date() });
    if (!ended || outcome.status === 'stopped') return;
    const counts = { run_id: runId, streamer: streamer.name, clips_downloaded: run.clips_downloaded + downloaded, clips_failed: failed };
    if (outcome.status === 'completed') await raiseEvent(trx, run.user_id, 'run.completed', { ...counts, error: null });
    else await raiseEvent(trx, run.user_id, 'run.failed', { ...counts, error: outcome.error ?? outcome.message });
  });
  await recordLog(deps.db, deps.logger, { level: outcome.level, logger: 'downloads', message: outcome.message, userId: run.user_id, error: outcome.cause });
}
