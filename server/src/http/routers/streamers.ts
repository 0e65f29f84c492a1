import { createStreamerInput, streamer, streamerNameInput, updateStreamerInput } from '@clipshift/shared';
import { z } from 'zod';
import { hasActiveRun } from '../../domains/downloads/service.ts';
import { recordLog } from '../../domains/logs/service.ts';
import { authedProcedure, router, validated } from '../trpc.ts';
import { createStreamer, deleteStreamer, listStreamerRows, streamerView, streamerViews, toStreamer, updateStreamer } from '../../domains/streamers/service.ts';

export const streamersRouter = router({
  list: authedProcedure.output(validated(z.array(streamer))).query(async ({ ctx }) => {
    return streamerViews(ctx.deps.db, await listStreamerRows(ctx.deps.db, ctx.user.id));
  }),

  create: authedProcedure
    .input(createStreamerInput)
    .output(validated(streamer))
    .mutation(async ({ ctx, input }) => {
      const row = await createStreamer(ctx.deps.db, ctx.deps.twitch, ctx.user.id, input);
      await recordLog(ctx.deps.db, ctx.deps.logger, { level: 'INFO', logger: 'streamers', message: `Added streamer ${row.name}`, userId: ctx.user.id });
      return toStreamer(row);
    }),

  update: authedProcedure
    .input(updateStreamerInput)
    .output(validated(streamer))
    .mutation(async ({ ctx, input }) => {
      const row = await updateStreamer(ctx.deps.db, ctx.user.id, input, hasActiveRun);
      await recordLog(ctx.deps.db, ctx.deps.logger, { level: 'INFO', logger: 'streamers', message: `Updated streamer ${row.name}`, userId: ctx.user.id });
      return streamerView(ctx.deps.db, row);
    }),

  delete: authedProcedure
    .input(streamerNameInput)
    .output(validated(z.object({ message: z.string() })))
    .mutation(async ({ ctx, input }) => {
      const name = await deleteStreamer(ctx.deps, ctx.user.id, input.name, hasActiveRun);
      await recordLog(ctx.deps.db, ctx.deps.logger, { level: 'INFO', logger: 'streamers', message: `Deleted streamer ${name}`, userId: ctx.user.id });
      return { message: `Streamer ${name} deleted successfully` };
    }),
});
