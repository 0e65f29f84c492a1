import { processingSettings, processingSettingsInput } from '@clipshift/shared';
import { z } from 'zod';
import { storageUsage } from '../../domains/clips/service.ts';
import { recordLog } from '../../domains/logs/service.ts';
import { authedProcedure, router, validated } from '../trpc.ts';
import { saveProcessingSettings, storedProcessingSettings, toProcessingSettings } from '../../domains/settings/service.ts';

export const settingsRouter = router({
  /** Settings › Processing as saved on the server; the defaults (updated_at null) until the first save. */
  processing: authedProcedure
    .output(validated(processingSettings))
    .query(async ({ ctx }) => toProcessingSettings(await storedProcessingSettings(ctx.deps.db, ctx.user.id), ctx.deps.env)),

  /** What the user's clips take in storage, and where that is (Settings shows it). */
  storageUsage: authedProcedure
    .output(validated(z.object({ bytes: z.number().int().nonnegative(), clips: z.number().int().nonnegative(), storage: z.enum(['local', 's3']), retention_days: z.number().int().nullable() })))
    .query(async ({ ctx }) => ({
      ...(await storageUsage(ctx.deps.db, ctx.user.id)),
      storage: ctx.deps.storage.kind,
      retention_days: ctx.deps.env.MEDIA_RETENTION_DAYS ?? null,
    })),

  saveProcessing: authedProcedure
    .input(processingSettingsInput)
    .output(validated(processingSettings))
    .mutation(async ({ ctx, input }) => {
      const row = await saveProcessingSettings(ctx.deps.db, ctx.user.id, input);
      await recordLog(ctx.deps.db, ctx.deps.logger, {
        level: 'INFO',
        logger: 'settings',
        message: `Processing preferences saved: ${row.whisper_model} speech model, ${row.concurrency} clips at once`,
        userId: ctx.user.id,
      });
      return toProcessingSettings(row, ctx.deps.env);
    }),
});
