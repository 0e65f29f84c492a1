import { DEFAULT_WHISPER_MODEL } from '@clipshift/shared';
import { z } from 'zod';
import { authedProcedure, router } from '../trpc/init.ts';
import { awaitSubtitles, requestSubtitles } from './service.ts';

export const subtitleInput = z.object({
  id: z.string().trim().min(1).max(200),
  model: z.string().trim().regex(/^[A-Za-z0-9._-]{1,64}$/, `model must be a model name such as ${DEFAULT_WHISPER_MODEL}`).optional(),
});

export const subtitlesRouter = router({
  generate: authedProcedure
    .input(subtitleInput)
    .output(z.object({ ok: z.boolean(), message: z.string(), no_speech: z.boolean().optional() }))
    .mutation(async ({ ctx, input, signal }) => {
      const requestId = await requestSubtitles(ctx.deps.db, ctx.user.id, input.id, input.model);
      return awaitSubtitles(ctx.deps.db, requestId, { signal, stopping: ctx.deps.stopping });
    }),
});
