import { twitchConnection } from '@clipshift/shared';
import { z } from 'zod';
import { disconnectTwitch, twitchAuthorizeUrl, twitchConnection as connectionOf } from '../../domains/twitch/service.ts';
import { authedProcedure, router, validated } from '../trpc.ts';

/** The user's own Twitch account (rest-api.md "Moments"): it turns moments into clips and fetches the files of channels it edits. */
export const twitchRouter = router({
  /** Twitch's authorization URL with a single-use state bound to the caller (ten minutes); 503 when Twitch is not configured. */
  authUrl: authedProcedure.output(validated(z.object({ auth_url: z.string() }))).query(async ({ ctx }) => ({ auth_url: await twitchAuthorizeUrl(ctx.deps, ctx.user.id) })),

  connection: authedProcedure.output(validated(twitchConnection)).query(({ ctx }) => connectionOf(ctx.deps, ctx.user.id)),

  disconnect: authedProcedure
    .output(validated(z.object({ message: z.string() })))
    .mutation(async ({ ctx }) => {
      await disconnectTwitch(ctx.deps, ctx.user.id);
      return { message: 'Twitch account disconnected' };
    }),
});
