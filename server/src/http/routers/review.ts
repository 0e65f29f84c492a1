import {
  accountPostSettings,
  APPROVAL_PAGE_PATH,
  approvalAnswerResult,
  approvalLinkInput,
  approvalLinkState,
  approvalPage,
  approveClipInput,
  approveClipResult,
  approveClipsInput,
  approveClipsResult,
  clip,
  rejectByLinkInput,
  reviewClipInput,
  reviewCount,
  saveAccountPostSettingsInput,
  shareClipInput,
  shareClipResult,
  type ApprovalPage,
} from '@clipshift/shared';
import { z } from 'zod';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { listAccountPostSettings, saveAccountPostSettings, toUpload, type UploadRow } from '../../domains/publishing/service.ts';
import {
  approvalLinkPage,
  approveByLink,
  approveClip,
  approveClips,
  countPending,
  listApprovalLinks,
  listPendingClips,
  rejectByLink,
  rejectClip,
  shareClip,
  type ApprovalLinkView,
} from '../../domains/review/service.ts';
import { approvalLinkFileUrl } from '../files.ts';
import { authedProcedure, publicProcedure, router, validated } from '../trpc.ts';
import { toClips } from './clips.ts';

const toUploads = (db: DbOrTrx, rows: readonly UploadRow[]) => Promise.all(rows.map((row) => toUpload(db, row)));

/** A link's page as the API answers it: its video and picture are served only while it is open. */
function toApprovalPage(token: string, view: ApprovalLinkView): ApprovalPage {
  const open = view.status === 'open';
  return {
    status: view.status,
    title: view.title,
    streamer: view.streamer,
    description: view.description,
    accounts: view.accounts,
    format_type: view.formatType,
    video_url: open ? approvalLinkFileUrl(token, 'video') : null,
    thumbnail_url: open ? approvalLinkFileUrl(token, 'thumbnail') : null,
    expires_at: view.expiresAt.toISOString(),
    answered_at: view.answeredAt?.toISOString() ?? null,
    note: view.note,
  };
}

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

  /** An approval link for someone without an account: the URL holds its token, shown this once. */
  share: authedProcedure
    .input(shareClipInput)
    .output(validated(shareClipResult))
    .mutation(async ({ ctx, input }) => {
      const { token, expiresAt } = await shareClip(ctx.deps, ctx.user.id, input);
      return { url: `${ctx.deps.env.publicUrl}${APPROVAL_PAGE_PATH}/${token}`, expires_at: expiresAt.toISOString() };
    }),

  /** The latest approval link of each clip shared lately: out, answered or expired. */
  links: authedProcedure.output(validated(z.array(approvalLinkState))).query(({ ctx }) => listApprovalLinks(ctx.deps.db, ctx.user.id)),

  /** An approval link's page, for whoever holds the link (no session). */
  linkPage: publicProcedure
    .input(approvalLinkInput)
    .output(validated(approvalPage))
    .query(async ({ ctx, input }) => toApprovalPage(input.token, await approvalLinkPage(ctx.deps, input.token, ctx.meta.ip))),

  approveByLink: publicProcedure
    .input(approvalLinkInput)
    .output(validated(approvalAnswerResult))
    .mutation(async ({ ctx, input }) => {
      await approveByLink(ctx.deps, input.token, ctx.meta.ip);
      return { status: 'approved' as const, message: 'Approved: the clip will be posted. Thank you!' };
    }),

  rejectByLink: publicProcedure
    .input(rejectByLinkInput)
    .output(validated(approvalAnswerResult))
    .mutation(async ({ ctx, input }) => {
      await rejectByLink(ctx.deps, input.token, ctx.meta.ip, input.note);
      return { status: 'rejected' as const, message: 'Rejected: the clip will not be posted. Thank you!' };
    }),

  /** Privacy and interactions chosen once per account for approvals and auto posts. */
  accountSettings: authedProcedure.output(validated(z.array(accountPostSettings))).query(({ ctx }) => listAccountPostSettings(ctx.deps.db, ctx.user.id)),

  saveAccountSettings: authedProcedure
    .input(saveAccountPostSettingsInput)
    .output(validated(accountPostSettings))
    .mutation(({ ctx, input }) => saveAccountPostSettings(ctx.deps.db, ctx.user.id, input)),
});
