import { clipDetails, clipIdInput, clipTranscript, updateClipEditInput, updateTranscriptInput } from '@clipshift/shared';
import { clipTranscript as readTranscript, updateClipEdit, updateClipTranscript } from '../../domains/studio/service.ts';
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
});
