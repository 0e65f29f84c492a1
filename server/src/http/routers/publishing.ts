import { accountIdInput, creatorOptions, formatAccountHandle, linkAccountInput, passkeyInput, postClipInput, streamer, tiktokAccount, upload } from '@clipshift/shared';
import { z } from 'zod';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { findPasskeyOwnerLimited } from '../../domains/guests/service.ts';
import { recordLog } from '../../domains/logs/service.ts';
import { decryptSecret } from '../../platform/crypto.ts';
import { findStreamer, streamerView } from '../../domains/streamers/service.ts';
import { AppError, badGateway } from '../../platform/errors.ts';
import { authedProcedure, publicProcedure, router } from '../trpc.ts';
import { findAccount, freshAccessToken, linkAccount, listAccounts, unlinkAccount } from '../../domains/publishing/accounts.ts';
import { authorizeUrlFor, requireTikTok } from '../../domains/publishing/oauth.ts';
import { awaitAccepted, findUpload, postClip, toUpload } from '../../domains/publishing/uploads.ts';

const authUrlOutput = z.object({ auth_url: z.string() });

/** Link or unlink: both check that the streamer and the account are the caller's, then answer the streamer. */
function linkProcedure(change: (db: DbOrTrx, streamerId: string, accountId: string) => Promise<void>) {
  return authedProcedure
    .input(linkAccountInput)
    .output(streamer)
    .mutation(async ({ ctx, input }) => {
      const row = await findStreamer(ctx.deps.db, ctx.user.id, input.name);
      const account = await findAccount(ctx.deps.db, ctx.user.id, input.tiktok_account_id);
      await change(ctx.deps.db, row.id, account.id);
      return streamerView(ctx.deps.db, row);
    });
}

export const tiktokRouter = router({
  authUrl: authedProcedure.output(authUrlOutput).query(async ({ ctx }) => ({ auth_url: await authorizeUrlFor(ctx.deps, ctx.user.id, 'owner') })),

  guestAuthUrl: publicProcedure
    .input(passkeyInput)
    .output(authUrlOutput)
    .mutation(async ({ ctx, input }) => {
      const owner = await findPasskeyOwnerLimited({ db: ctx.deps.db, appSecret: ctx.deps.appSecret, ip: ctx.meta.ip, passkey: input.passkey });
      return { auth_url: await authorizeUrlFor(ctx.deps, owner.id, 'guest') };
    }),

  accounts: authedProcedure.output(z.array(tiktokAccount)).query(({ ctx }) => listAccounts(ctx.deps.db, ctx.user.id)),

  deleteAccount: authedProcedure
    .input(accountIdInput)
    .output(z.object({ message: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const account = await findAccount(ctx.deps.db, ctx.user.id, input.id);
      // Revoking is a courtesy to the user's TikTok security page: the account goes either way.
      if (ctx.deps.tiktok) {
        await ctx.deps.tiktok.revokeToken(decryptSecret(account.access_token_enc, ctx.deps.appSecret)).catch((error: unknown) => {
          ctx.deps.logger.warn({ err: error }, 'TikTok token revocation failed');
        });
      }
      await ctx.deps.db.deleteFrom('tiktok_accounts').where('id', '=', account.id).execute();
      await recordLog(ctx.deps.db, ctx.deps.logger, {
        level: 'INFO',
        logger: 'tiktok',
        message: `Removed TikTok account ${formatAccountHandle(account)}`,
        userId: ctx.user.id,
      });
      return { message: 'TikTok account deleted successfully' };
    }),

  linkedStreamers: authedProcedure
    .input(accountIdInput)
    .output(z.array(z.object({ name: z.string() })))
    .query(async ({ ctx, input }) => {
      const account = await findAccount(ctx.deps.db, ctx.user.id, input.id);
      const rows = await ctx.deps.db
        .selectFrom('streamer_tiktok_accounts as l')
        .innerJoin('streamers as s', 's.id', 'l.streamer_id')
        .select('s.name')
        .where('l.tiktok_account_id', '=', account.id)
        .orderBy('s.name')
        .execute();
      return rows.map((row) => ({ name: row.name }));
    }),

  link: linkProcedure(linkAccount),
  unlink: linkProcedure(unlinkAccount),

  post: authedProcedure
    .input(postClipInput)
    .output(z.object({ message: z.string(), uploads: z.array(upload) }))
    .mutation(async ({ ctx, input, signal }) => {
      const queued = await postClip(ctx.deps.db, ctx.user.id, ctx.deps.env.TIKTOK_POST_MODE, input);
      const rows = await awaitAccepted(ctx.deps.db, queued.map((row) => row.id), signal, ctx.deps.stopping);
      const uploads = await Promise.all(rows.map((row) => toUpload(ctx.deps.db, row)));
      const failed = uploads.filter((item) => item.status === 'failed');
      if (failed.length === uploads.length) {
        throw new AppError('BAD_GATEWAY', failed[0]?.error ?? 'TikTok refused the video', { details: { uploads } });
      }
      return { message: 'Posted to TikTok successfully!', uploads };
    }),

  /** What TikTok lets this account post with right now: privacy levels, interaction flags, max duration. */
  creatorOptions: authedProcedure
    .input(accountIdInput)
    .output(creatorOptions)
    .query(async ({ ctx, input }) => {
      const tiktok = requireTikTok(ctx.deps);
      const account = await findAccount(ctx.deps.db, ctx.user.id, input.id);
      try {
        const token = await freshAccessToken(ctx.deps.db, tiktok, ctx.deps.appSecret, account.id);
        const info = await tiktok.queryCreatorInfo(token);
        return {
          tiktok_account_id: account.id,
          privacy_level_options: info.privacyLevelOptions,
          comment_disabled: info.commentDisabled,
          duet_disabled: info.duetDisabled,
          stitch_disabled: info.stitchDisabled,
          max_video_post_duration_sec: info.maxVideoPostDurationSec,
          nickname: info.nickname ?? null,
        };
      } catch (error) {
        throw badGateway((error as Error).message, error);
      }
    }),

  uploadStatus: authedProcedure
    .input(accountIdInput)
    .output(upload)
    .query(async ({ ctx, input }) => toUpload(ctx.deps.db, await findUpload(ctx.deps.db, ctx.user.id, input.id))),
});
