import { passkeyInput } from '@clipshift/shared';
import { z } from 'zod';
import { anonymousLogBudget, recordLog } from '../logs/service.ts';
import { consumeRateLimit, RATE_LIMITS } from '../security/rate-limit.ts';
import { authedProcedure, publicProcedure, router } from '../trpc/init.ts';
import { ensurePasskey, findPasskeyOwner } from './service.ts';

export const guestsRouter = router({
  currentPasskey: authedProcedure
    .output(z.object({ passkey: z.string() }))
    .query(async ({ ctx }) => ({ passkey: await ensurePasskey(ctx.deps.db, ctx.user.id) })),

  verifyPasskey: publicProcedure
    .input(passkeyInput)
    .output(z.object({ valid: z.literal(true), message: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const { db, logger } = ctx.deps;
      await consumeRateLimit(db, `passkey:${ctx.meta.ip}`, RATE_LIMITS.passkey);
      const owner = await findPasskeyOwner(db, input.passkey);
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
