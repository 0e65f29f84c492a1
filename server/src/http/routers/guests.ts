import { passkeyInput } from '@clipshift/shared';
import { z } from 'zod';
import { anonymousLogBudget, recordLog } from '../../domains/logs/service.ts';
import { authedProcedure, publicProcedure, router } from '../trpc.ts';
import { ensurePasskey, findPasskeyOwnerLimited } from '../../domains/guests/service.ts';

export const guestsRouter = router({
  currentPasskey: authedProcedure
    .output(z.object({ passkey: z.string() }))
    .query(async ({ ctx }) => ({ passkey: await ensurePasskey(ctx.deps.db, ctx.user.id) })),

  verifyPasskey: publicProcedure
    .input(passkeyInput)
    .output(z.object({ valid: z.literal(true), message: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const { db, logger } = ctx.deps;
      const owner = await findPasskeyOwnerLimited({ db, appSecret: ctx.deps.appSecret, ip: ctx.meta.ip, passkey: input.passkey });
      await recordLog(db, logger, {
        level: 'INFO',
        logger: 'guests',
        message: `A guest verified ${owner.username}'s passkey from ${ctx.meta.ip}`,
        userId: owner.id,
        budget: anonymousLogBudget(owner.id),
      });
      return { valid: true as const, message: 'Passkey verified' };
    }),
});
