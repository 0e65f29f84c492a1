import type pg from 'pg';
import type { AppDeps } from '../domains/deps.ts';
import { downloadRunJob, scheduleJob } from '../domains/downloads/jobs/index.ts';
import { webhookDeliveryJob, type DeliveryOptions } from '../domains/notifications/jobs/index.ts';
import { autoPublishJob, mediaRetentionJob, postJob, refreshStatsJob, refreshTokensJob } from '../domains/publishing/jobs/index.ts';
import { renderJob, subtitleJob } from '../domains/subtitles/jobs/index.ts';
import { liveCheckJob, momentClipJob, startChatWatcher, type ChatWatcherOptions } from '../domains/moments/jobs/index.ts';
import { recoverJob } from '../jobs/recovery.ts';
import { superviseWorker, type CronSchedule, type WorkerHandle } from '../jobs/worker.ts';
import { PROCESS_IDENTITY, type WorkerIdentity } from '../platform/identity.ts';
import { LIVE_CHECK_JOB, LOGS_TRIM_JOB, MEDIA_RETENTION_JOB, RECOVER_JOB, REFRESH_STATS_JOB, REFRESH_TOKENS_JOB } from '../platform/queue/contracts.ts';
import type { AnyJobDefinition } from '../platform/queue/define.ts';
import { housekeepingJob } from './housekeeping.ts';

export type { WorkerHandle } from '../jobs/worker.ts';

interface WorkerOptions {
  identity?: WorkerIdentity;
  /** Whether the recovery cron may take silence for death right now (see RecoveryOptions). */
  staleVerdicts?: () => boolean;
  /** Webhook retry timing (tests shorten the backoff; production keeps the defaults). */
  webhooks?: DeliveryOptions;
  /** The recurring jobs (CRON unless given): a test that drives one with its own clock leaves it out. */
  cron?: readonly CronSchedule[];
  /** The live chat watcher beside the jobs (tests shorten its timing, or leave it out with false). */
  chatWatcher?: Partial<Omit<ChatWatcherOptions, 'identity'>> | false;
}

/** Every job the worker runs. */
function appJobs(deps: AppDeps, options: WorkerOptions = {}): AnyJobDefinition[] {
  const identity = options.identity ?? PROCESS_IDENTITY;
  return [
    housekeepingJob(deps),
    downloadRunJob(deps, { identity }),
    scheduleJob(deps),
    recoverJob(deps, identity, options.staleVerdicts),
    subtitleJob(deps, identity),
    renderJob(deps, identity),
    postJob(deps, identity),
    autoPublishJob(deps),
    webhookDeliveryJob(deps, options.webhooks),
    mediaRetentionJob(deps),
    refreshStatsJob(deps),
    refreshTokensJob(deps),
    liveCheckJob(deps),
    momentClipJob(deps),
  ];
}

export const CRON: readonly CronSchedule[] = [
  { job: LOGS_TRIM_JOB, match: '17 * * * *', identifier: 'logs-trim' },
  // Catches runs whose worker died on another machine (their heartbeat goes silent).
  { job: RECOVER_JOB, match: '* * * * *', identifier: 'downloads-recover' },
  // Does nothing unless MEDIA_RETENTION_DAYS is set.
  { job: MEDIA_RETENTION_JOB, match: '41 * * * *', identifier: 'media-retention' },
  // Published posts' statistics: hourly for 7 days after publishing, then daily until 30 (stats-schedule.ts).
  // Each post's stats_due_at decides when it is read; looking every minute only makes a new post's
  // first reading (due at once) come within a minute of publishing, at the cost of one indexed query.
  { job: REFRESH_STATS_JOB, match: '* * * * *', identifier: 'publishing-refresh-stats' },
  // Grants that end within a week (an Instagram token that is not refreshed by posting) are refreshed once a day.
  { job: REFRESH_TOKENS_JOB, match: '29 3 * * *', identifier: 'publishing-refresh-tokens' },
  // Which watched streamers are live (Helix asked at most once a minute each); readers follow.
  { job: LIVE_CHECK_JOB, match: '* * * * *', identifier: 'moments-check-live' },
];

/**
 * The app's job worker: its jobs and cron under jobs/'s supervisor, and beside them the live chat
 * watcher, which reads streams outside the job slots (a stream lasts hours; renders must not wait).
 */
export async function startWorker(deps: AppDeps, pool: pg.Pool, concurrency: number, options: WorkerOptions = {}): Promise<WorkerHandle> {
  const worker = await superviseWorker({ db: deps.db, logger: deps.logger, pool, concurrency, jobs: appJobs(deps, options), cron: options.cron ?? CRON, identity: options.identity });
  if (options.chatWatcher === false) return worker;
  const watcher = startChatWatcher(deps, { chatUrl: deps.env.TWITCH_CHAT_URL, ...options.chatWatcher, identity: options.identity ?? PROCESS_IDENTITY });
  return {
    poolIds: () => worker.poolIds(),
    async stop() {
      await Promise.all([watcher.stop(), worker.stop()]);
    },
  };
}
