import { whisperModelName } from '@clipshift/shared';
import { z } from 'zod';
import { whisperModelFor } from '../../domains/settings/service.ts';
import { authedProcedure, router } from '../trpc.ts';
import { awaitSubtitles, requestSubtitles } from '../../domains/subtitles/service.ts';

const subtitleInput = z.object({
  id: z.string().trim().min(1).max(200),
  model: whisperModelName().optional(),
});

export const subtitlesRouter = router({
  generate: authedProcedure
    .input(subtitleInput)
    .output(z.object({ ok: z.boolean(), message: z.string(), no_speech: z.boolean().optional() }))
    .mutation(async ({ ctx, input, signal }) => {
      // Without a model in the request, the one saved in Settings.
      const model = await whisperModelFor(ctx.deps.db, ctx.user.id, input.model);
      const requestId = await requestSubtitles(ctx.deps.db, ctx.user.id, input.id, model);
      return awaitSubtitles(ctx.deps.db, requestId, { signal, stopping: ctx.deps.stopping });
    }),
});
