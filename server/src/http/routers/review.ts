import { accountPostSettings, approveClipInput, approveClipResult, approveClipsInput, approveClipsResult, clip, reviewClipInput, reviewCount, saveAccountPostSettingsInput } from '@clipshift/shared';
import { z } from 'zod';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { listAccountPostSettings, saveAccountPostSettings, toUpload, type UploadRow } from '../../domains/publishing/service.ts';
import { approveClip, approveClips, countPending, listPendingClips, rejectClip } from '../../domains/review/service.ts';
import { authedProcedure, router, validated } from '../trpc.ts';
import { toClips } from './clips.ts';

const toUploads = (db: DbOrTrx, rows: readonly UploadRow[]) => Promise.all(rows.map((row) => toUpload(db, row)));

export const reviewRouter = router({
  list: authedProcedure.output(validated(z.array(clip))).query(async ({ ctx }) => toClips(ctx.deps.db, await listPendingClips(ctx.deps.db, ctx.user.id))),

  /** The navigation's badge. */
  count: authedProcedure.output(validated(reviewCount)).query(async ({ ctx }) => ({ count: await countPending(ctx.deps.db, ctx.user.id) })),

  approve: authedProcedure
    .input(approveClipInput)
    .output(validated(approveClipResult))
    .mutation(async ({ ctx, input }) => {
      const { uploads } = await approveClip(ctx.deps, ctx.user.id, input);
      const message = uploads.length
        ? `Approved: queued for ${uploads.length} account${uploads.length === 1 ? '' : 's'}`
        : 'Approved: it was already posted or being posted to those accounts';
      return { message, uploads: await toUploads(ctx.deps.db, uploads) };
    }),

  approveMany: authedProcedure
    .input(approveClipsInput)
    .output(validated(approveClipsResult))
    .mutation(async ({ ctx, input }) => {
      const result = await approveClips(ctx.deps, ctx.user.id, input.clip_ids, { youtube_notify_subscribers: input.youtube_notify_subscribers });
      return { ...result, uploads: await toUploads(ctx.deps.db, result.uploads) };
    }),

  reject: authedProcedure
    .input(reviewClipInput)
    .output(validated(z.object({ message: z.string() })))
    .mutation(async ({ ctx, input }) => {
      await rejectClip(ctx.deps, ctx.user.id, input.clip_id);
      return { message: 'Rejected: the clip stays in your library and will not be posted' };
    }),

  /** Privacy and interactions chosen once per account for approvals and auto posts. */
  accountSettings: authedProcedure.output(validated(z.array(accountPostSettings))).query(({ ctx }) => listAccountPostSettings(ctx.deps.db, ctx.user.id)),

  saveAccountSettings: authedProcedure
    .input(saveAccountPostSettingsInput)
    .output(validated(accountPostSettings))
    .mutation(({ ctx, input }) => saveAccountPostSettings(ctx.deps.db, ctx.user.id, input)),
});
