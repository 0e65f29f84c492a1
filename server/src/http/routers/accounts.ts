import { ACCOUNT_PLATFORMS, accountIdInput, accountStats, accountStatsInput, connectedAccount, passkeyInput, PLATFORM_LABELS, platformAvailability, platformField, platformInput } from '@clipshift/shared';
import { z } from 'zod';
import { accountStats as statsOfAccount, authorizeUrlFor, configurationProblem, findAccount, removeAccount, youtubeUploadsLeft } from '../../domains/publishing/service.ts';
import { accountViews } from '../../domains/streamers/service.ts';
import { authedProcedure, publicProcedure, router, validated } from '../trpc.ts';
import { guestPasskeyOwner } from './guests.ts';

const authUrlOutput = z.object({ auth_url: z.string() });

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

  /** Which platforms accounts can be connected from on this server, with what to set when one cannot. */
  platforms: authedProcedure
    .output(validated(z.array(platformAvailability)))
    .query(({ ctx }) =>
      ACCOUNT_PLATFORMS.map((platform) => {
        const message = configurationProblem(ctx.deps, platform);
        return { platform, configured: message === null, message };
      }),
    ),

  /** The platform's authorization URL with a single-use state bound to the caller and the platform. */
  authUrl: authedProcedure
    .input(platformInput)
    .output(validated(authUrlOutput))
    .query(async ({ ctx, input }) => ({ auth_url: await authorizeUrlFor(ctx.deps, ctx.user.id, 'owner', input.platform) })),

  /** A guest connects an account of any platform to the passkey's owner. */
  guestAuthUrl: publicProcedure
    .input(passkeyInput.extend({ platform: platformField }))
    .output(validated(authUrlOutput))
    .mutation(async ({ ctx, input }) => {
      const owner = await guestPasskeyOwner(ctx, input.passkey);
      return { auth_url: await authorizeUrlFor(ctx.deps, owner.id, 'guest', input.platform) };
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
