import { accountIdInput, accountStats, accountStatsInput, connectedAccount, PLATFORM_LABELS } from '@clipshift/shared';
import { z } from 'zod';
import { accountStats as statsOfAccount, findAccount, removeAccount, youtubeUploadsLeft } from '../../domains/publishing/service.ts';
import { accountViews } from '../../domains/streamers/service.ts';
import { authedProcedure, router, validated } from '../trpc.ts';

/** Settings' "Connected accounts": the user's accounts of every platform in one list. */
export const accountsRouter = router({
  list: authedProcedure.output(validated(z.array(connectedAccount))).query(async ({ ctx }) => {
    const [accounts, uploadsLeft] = await Promise.all([accountViews(ctx.deps.db, ctx.user.id), youtubeUploadsLeft(ctx.deps)]);
    return accounts.map(({ needs_reconnect, ...account }) => ({
      ...account,
      status: needs_reconnect ? 'reconnect' : 'ok',
      uploads_left_today: account.platform === 'youtube' ? uploadsLeft : null,
    }) as const);
  }),

  delete: authedProcedure
    .input(accountIdInput)
    .output(validated(z.object({ message: z.string() })))
    .mutation(async ({ ctx, input }) => {
      const { platform } = await findAccount(ctx.deps.db, ctx.user.id, input.id);
      await removeAccount(ctx.deps, ctx.user.id, input.id);
      return { message: `${PLATFORM_LABELS[platform]} account deleted successfully` };
    }),

  /** Post statistics of one account: totals, views per day, best posts (issue 14). */
  stats: authedProcedure
    .input(accountStatsInput)
    .output(validated(accountStats))
    .query(({ ctx, input }) => statsOfAccount(ctx.deps.db, ctx.user.id, input.id, input.days)),
});
