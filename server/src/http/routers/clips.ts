import { clipDetails, clipIdInput, clipList, listClipsInput, updateDescriptionsInput } from '@clipshift/shared';
import { z } from 'zod';
import { recordLog } from '../../domains/logs/service.ts';
import { withFileUrls } from '../files.ts';
import { authedProcedure, router } from '../trpc.ts';
import { deleteClip, findClipRow, listClips, toClipDetails, updateDescriptions } from '../../domains/clips/service.ts';

export const clipsRouter = router({
  list: authedProcedure
    .input(listClipsInput)
    .output(clipList)
    .query(async ({ ctx, input }) => {
      const list = await listClips(ctx.deps.db, ctx.user.id, input);
      return { ...list, clips: list.clips.map(withFileUrls) };
    }),

  details: authedProcedure
    .input(clipIdInput)
    .output(clipDetails)
    .query(async ({ ctx, input }) => withFileUrls(await toClipDetails(ctx.deps.db, await findClipRow(ctx.deps.db, ctx.user.id, input.id)))),

  updateDescriptions: authedProcedure
    .input(updateDescriptionsInput)
    .output(clipDetails)
    .mutation(async ({ ctx, input }) => withFileUrls(await toClipDetails(ctx.deps.db, await updateDescriptions(ctx.deps.db, ctx.user.id, input)))),

  delete: authedProcedure
    .input(clipIdInput)
    .output(z.object({ message: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const row = await deleteClip(ctx.deps.db, ctx.deps.env.dataDir, ctx.user.id, input.id);
      await recordLog(ctx.deps.db, ctx.deps.logger, { level: 'INFO', logger: 'clips', message: `Deleted clip "${row.title}" (${row.clip_id})`, userId: ctx.user.id });
      return { message: 'Clip deleted successfully' };
    }),
});
