import { listMomentsInput, moment } from '@clipshift/shared';
import { z } from 'zod';
import { listMoments } from '../../domains/moments/service.ts';
import { authedProcedure, router, validated } from '../trpc.ts';

export const momentsRouter = router({
  list: authedProcedure
    .input(listMomentsInput)
    .output(validated(z.array(moment)))
    .query(({ ctx, input }) => listMoments(ctx.deps.db, ctx.user.id, input)),
});
