import { accountIdInput, PLATFORM_LABELS, postingSchedule, postingScheduleInput, queueItem, queueItemInput } from '@clipshift/shared';
import { z } from 'zod';
import { cancelQueued, getSchedule, listQueue, postQueuedNow, saveSchedule } from '../../domains/publishing/service.ts';
import { authedProcedure, router, validated } from '../trpc.ts';

const message = z.object({ message: z.string() });

/** Posting slots per account and the queue of posts waiting for them (rest-api.md "Automation"). */
export const queueRouter = router({
  schedule: authedProcedure
    .input(accountIdInput)
    .output(validated(postingSchedule))
    .query(({ ctx, input }) => getSchedule(ctx.deps.db, ctx.user.id, input.id)),

  saveSchedule: authedProcedure
    .input(postingScheduleInput)
    .output(validated(postingSchedule))
    .mutation(({ ctx, input }) => saveSchedule(ctx.deps.db, ctx.user.id, input)),

  list: authedProcedure.output(validated(z.array(queueItem))).query(({ ctx }) => listQueue(ctx.deps.db, ctx.user.id)),

  cancel: authedProcedure
    .input(queueItemInput)
    .output(validated(message))
    .mutation(async ({ ctx, input }) => {
      await cancelQueued(ctx.deps.db, ctx.user.id, input.id);
      return { message: 'The post was taken off the queue' };
    }),

  postNow: authedProcedure
    .input(queueItemInput)
    .output(validated(message))
    .mutation(async ({ ctx, input }) => {
      const platform = await postQueuedNow(ctx.deps.db, ctx.user.id, input.id);
      return { message: `The post goes to ${PLATFORM_LABELS[platform]} now` };
    }),
});
