import { clipDetails, clipDetection, clipIdInput, clipTranscript, streamerDetection, streamerNameInput, updateClipEditInput, updateTranscriptInput } from '@clipshift/shared';
import { clipTranscript as readTranscript, detectClip, detectStreamer, updateClipEdit, updateClipTranscript } from '../../domains/studio/service.ts';
import { PROCESS_IDENTITY } from '../../platform/identity.ts';
import { authedProcedure, router, validated } from '../trpc.ts';
import { toClipDetails } from './clips.ts';

export const studioRouter = router({
  edit: authedProcedure
    .input(updateClipEditInput)
    .output(validated(clipDetails))
    .mutation(async ({ ctx, input }) => toClipDetails(ctx.deps.db, await updateClipEdit(ctx.deps.db, ctx.user.id, input))),

  transcript: authedProcedure
    .input(clipIdInput)
    .output(validated(clipTranscript))
    .query(({ ctx, input }) => readTranscript(ctx.deps.db, ctx.user.id, input.id)),

  updateTranscript: authedProcedure
    .input(updateTranscriptInput)
    .output(validated(clipTranscript))
    .mutation(({ ctx, input }) => updateClipTranscript(ctx.deps.db, ctx.user.id, input)),

  detect: authedProcedure
    .input(clipIdInput)
    .output(validated(clipDetection))
    .mutation(({ ctx, input, signal }) => detectClip(ctx.deps, ctx.user.id, input.id, { instance: PROCESS_IDENTITY.instance, signal })),

  detectStreamer: authedProcedure
    .input(streamerNameInput)
    .output(validated(streamerDetection))
    .mutation(({ ctx, input, signal }) => detectStreamer(ctx.deps, ctx.user.id, input.name, { instance: PROCESS_IDENTITY.instance, signal })),
});
