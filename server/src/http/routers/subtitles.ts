import { clipIdInput, streamerNameInput, whisperModelName } from '@clipshift/shared';
import { z } from 'zod';
import { whisperModelFor } from '../../domains/settings/service.ts';
import { authedProcedure, router, validated } from '../trpc.ts';
import { awaitSubtitles, renderStreamerClips, requestRender, requestSubtitles, stopRender, stopStreamerRenders } from '../../domains/subtitles/service.ts';

const subtitleInput = z.object({
  id: z.string().trim().min(1).max(200),
  model: whisperModelName().optional(),
  retranscribe: z.boolean({ error: 'retranscribe must be true or false' }).optional(),
});

const messageOutput = z.object({ message: z.string() });

export const subtitlesRouter = router({
  generate: authedProcedure
    .input(subtitleInput)
    .output(validated(z.object({ ok: z.boolean(), message: z.string(), no_speech: z.boolean().optional() })))
    .mutation(async ({ ctx, input, signal }) => {
      // Without a model in the request, the one saved in Settings.
      const model = await whisperModelFor(ctx.deps.db, ctx.user.id, input.model);
      const requestId = await requestSubtitles(ctx.deps.db, ctx.user.id, input.id, model, input.retranscribe);
      return awaitSubtitles(ctx.deps.db, requestId, { signal, stopping: ctx.deps.stopping, limitMs: ctx.deps.heldCallLimitMs });
    }),

  render: authedProcedure
    .input(clipIdInput)
    .output(validated(messageOutput))
    .mutation(({ ctx, input }) => requestRender(ctx.deps.db, ctx.user.id, input.id)),

  stopRender: authedProcedure
    .input(clipIdInput)
    .output(validated(messageOutput))
    .mutation(({ ctx, input }) => stopRender(ctx.deps.db, ctx.user.id, input.id)),

  renderStreamer: authedProcedure
    .input(streamerNameInput)
    .output(validated(z.object({ message: z.string(), queued: z.number().int(), busy: z.number().int() })))
    .mutation(({ ctx, input }) => renderStreamerClips(ctx.deps.db, ctx.user.id, input.name)),

  stopStreamerRenders: authedProcedure
    .input(streamerNameInput)
    .output(validated(z.object({ message: z.string(), stopped: z.number().int() })))
    .mutation(({ ctx, input }) => stopStreamerRenders(ctx.deps.db, ctx.user.id, input.name)),
});
