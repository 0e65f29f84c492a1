import { accountIdInput, creatorOptions, linkAccountInput, passkeyInput, platformList, postClipInput, streamer, tiktokAccount, upload, type Upload } from '@clipshift/shared';
import { z } from 'zod';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { accountViews, findStreamer, linkedStreamerNames, streamerView } from '../../domains/streamers/service.ts';
import { AppError } from '../../platform/errors.ts';
import { authedProcedure, publicProcedure, router, validated } from '../trpc.ts';
import { guestPasskeyOwner } from './guests.ts';
import {
  authorizeUrlFor,
  awaitAccepted,
  creatorOptionsFor,
  findAccount,
  findUpload,
  linkAccount,
  postClip,
  removeAccount,
  toUpload,
  unlinkAccount,
  YOUTUBE_NOT_CONFIGURED,
} from '../../domains/publishing/service.ts';

const authUrlOutput = z.object({ auth_url: z.string() });


/** "Posted to TikTok successfully!", naming the platforms posted to in their usual order; a post that waits (quota, limit) says so. */
function postedMessage(uploads: readonly Upload[]): string {
  const platforms = platformList(uploads.map((item) => item.platform));
  const waiting = uploads.find((item) => item.status === 'scheduled');
  return waiting ? `Queued for ${platforms}: ${waiting.error ?? 'the post waits in the Queue'}` : `Posted to ${platforms} successfully!`;
}

/** Link or unlink: both check that the streamer and the account are the caller's, then answer the streamer. */
function linkProcedure(change: (db: DbOrTrx, streamerId: string, accountId: string) => Promise<void>) {
  return authedProcedure
    .input(linkAccountInput)
    .output(validated(streamer))
    .mutation(async ({ ctx, input }) => {
      const row = await findStreamer(ctx.deps.db, ctx.user.id, input.name);
      const account = await findAccount(ctx.deps.db, ctx.user.id, input.tiktok_account_id);
      await change(ctx.deps.db, row.id, account.id);
      return streamerView(ctx.deps.db, row);
    });
}

/** Posting to accounts of any platform, and which streamers' clips go to which account. */
export const postingRouter = router({
  linkedStreamers: authedProcedure
    .input(accountIdInput)
    .output(validated(z.array(z.object({ name: z.string() }))))
    .query(async ({ ctx, input }) => (await linkedStreamerNames(ctx.deps.db, ctx.user.id, input.id)).map((name) => ({ name }))),

  link: linkProcedure(linkAccount),
  unlink: linkProcedure(unlinkAccount),

  post: authedProcedure
    .input(postClipInput)
    .output(validated(z.object({ message: z.string(), uploads: z.array(upload) })))
    .mutation(async ({ ctx, input, signal }) => {
      const queued = await postClip(ctx.deps.db, ctx.user.id, ctx.deps.env.TIKTOK_POST_MODE, input);
      const rows = await awaitAccepted(ctx.deps.db, queued.map((row) => row.id), { signal, stopping: ctx.deps.stopping, limitMs: ctx.deps.heldCallLimitMs });
      const uploads = await Promise.all(rows.map((row) => toUpload(ctx.deps.db, row)));
      const failed = uploads.filter((item) => item.status === 'failed');
      if (failed.length === uploads.length) {
        throw new AppError('BAD_GATEWAY', failed[0]?.error ?? 'The platform refused the video', { details: { uploads } });
      }
      return { message: postedMessage(uploads), uploads };
    }),

  /**
   * POST /clips/{id}/post's work without the wait: the same checks and rows, answered as soon as the
   * posts are queued (MCP's post_clip; an agent follows them with list_queue). Not a REST route.
   */
  start: authedProcedure
    .input(postClipInput)
    .output(validated(z.object({ message: z.string(), uploads: z.array(upload) })))
    .mutation(async ({ ctx, input }) => {
      const queued = await postClip(ctx.deps.db, ctx.user.id, ctx.deps.env.TIKTOK_POST_MODE, input);
      const uploads = await Promise.all(queued.map((row) => toUpload(ctx.deps.db, row)));
      return { message: `Queued for ${platformList(uploads.map((item) => item.platform))}: follow the posts in the queue`, uploads };
    }),

  uploadStatus: authedProcedure
    .input(accountIdInput)
    .output(validated(upload))
    .query(async ({ ctx, input }) => toUpload(ctx.deps.db, await findUpload(ctx.deps.db, ctx.user.id, input.id))),
});

/** TikTok's own routes: connecting accounts and what TikTok lets an account post with. */
export const tiktokRouter = router({
  authUrl: authedProcedure.output(validated(authUrlOutput)).query(async ({ ctx }) => ({ auth_url: await authorizeUrlFor(ctx.deps, ctx.user.id, 'owner') })),

  guestAuthUrl: publicProcedure
    .input(passkeyInput)
    .output(validated(authUrlOutput))
    .mutation(async ({ ctx, input }) => {
      const owner = await guestPasskeyOwner(ctx, input.passkey);
      return { auth_url: await authorizeUrlFor(ctx.deps, owner.id, 'guest') };
    }),

  accounts: authedProcedure.output(validated(z.array(tiktokAccount))).query(({ ctx }) => accountViews(ctx.deps.db, ctx.user.id, 'tiktok')),

  deleteAccount: authedProcedure
    .input(accountIdInput)
    .output(validated(z.object({ message: z.string() })))
    .mutation(async ({ ctx, input }) => {
      await removeAccount(ctx.deps, ctx.user.id, input.id);
      return { message: 'TikTok account deleted successfully' };
    }),

  /** What TikTok lets this account post with right now: privacy levels, interaction flags, max duration. */
  creatorOptions: authedProcedure
    .input(accountIdInput)
    .output(validated(creatorOptions))
    .query(({ ctx, input }) => creatorOptionsFor(ctx.deps, ctx.user.id, input.id)),
});

/** Connecting YouTube channels (posting goes through posting.post, which takes accounts of every platform). */
export const youtubeRouter = router({
  /** Whether channels can be connected here, asked by Settings before anyone clicks (nothing is stored). */
  status: authedProcedure
    .output(validated(z.object({ configured: z.boolean(), message: z.string().nullable() })))
    .query(({ ctx }) => (ctx.deps.youtube ? { configured: true, message: null } : { configured: false, message: YOUTUBE_NOT_CONFIGURED })),

  authUrl: authedProcedure.output(validated(authUrlOutput)).query(async ({ ctx }) => ({ auth_url: await authorizeUrlFor(ctx.deps, ctx.user.id, 'owner', 'youtube') })),

  guestAuthUrl: publicProcedure
    .input(passkeyInput)
    .output(validated(authUrlOutput))
    .mutation(async ({ ctx, input }) => {
      const owner = await guestPasskeyOwner(ctx, input.passkey);
      return { auth_url: await authorizeUrlFor(ctx.deps, owner.id, 'guest', 'youtube') };
    }),
});
