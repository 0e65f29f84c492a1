import { startDownloadInput, startDownloadResult, statusMap as statusMapSchema, streamerNameInput } from '@clipshift/shared';
import { z } from 'zod';
import { recordLog } from '../../domains/logs/service.ts';
import { authedProcedure, router, validated } from '../trpc.ts';
import { ensureRoomForRun, requestStop, startRun, statusMap } from '../../domains/downloads/service.ts';

export const downloadsRouter = router({
  status: authedProcedure.output(validated(statusMapSchema)).query(({ ctx }) => statusMap(ctx.deps.db, ctx.user.id)),

  start: authedProcedure
    .input(startDownloadInput)
    .output(validated(startDownloadResult))
    .mutation(async ({ ctx, input }) => {
      await ensureRoomForRun(ctx.deps.env);
      const { run, streamer } = await startRun(ctx.deps.db, ctx.user.id, input, {
        trigger: 'manual',
        maxConcurrency: ctx.deps.env.WORKER_CONCURRENCY,
      });
      await recordLog(ctx.deps.db, ctx.deps.logger, {
        level: 'INFO',
        logger: 'downloads',
        message: `Started downloading up to ${run.clip_limit} clips for ${streamer.name} (${run.vertical ? 'vertical' : 'horizontal'})`,
        userId: ctx.user.id,
      });
      return {
        message: `Started downloading clips for ${streamer.name}`,
        status: 'downloading' as const,
        clips_downloaded: 0 as const,
        started_at: run.started_at.toISOString(),
      };
    }),

  stop: authedProcedure
    .input(streamerNameInput)
    .output(validated(z.object({ message: z.string() })))
    .mutation(async ({ ctx, input }) => {
      const streamer = await requestStop(ctx.deps.db, ctx.user.id, input.name);
      await recordLog(ctx.deps.db, ctx.deps.logger, {
        level: 'INFO',
        logger: 'downloads',
        message: `Stop requested for ${streamer.name}`,
        userId: ctx.user.id,
      });
      return { message: `Stopping download for ${streamer.name}` };
    }),
});
