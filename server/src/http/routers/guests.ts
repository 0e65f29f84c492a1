import { passkeyInput } from '@clipshift/shared';
import { z } from 'zod';
import { anonymousLogBudget, recordLog } from '../../domains/logs/service.ts';
import { DEVICE_COOKIE_TTL_MS } from '../../domains/auth/service.ts';
import { authedProcedure, type Context, publicProcedure, router, validated } from '../trpc.ts';
import { ensurePasskey, findPasskeyOwnerLimited, startGuestVisit } from '../../domains/guests/service.ts';

/** The owner of the passkey a guest typed, within the guess budgets of this browser and address. */
export function guestPasskeyOwner(ctx: Context, passkey: string) {
  const { db, appSecret } = ctx.deps;
  return findPasskeyOwnerLimited({ db, appSecret, ip: ctx.meta.ip, passkey, deviceCookie: ctx.meta.deviceCookie });
}

export const guestsRouter = router({
  currentPasskey: authedProcedure
    .output(validated(z.object({ passkey: z.string() })))
    .query(async ({ ctx }) => ({ passkey: await ensurePasskey(ctx.deps.db, ctx.user.id) })),

  /** The /connect page opens: this browser gets a guest visit, its own budget for wrong passkeys. */
  startVisit: publicProcedure.output(validated(z.object({ message: z.string() }))).mutation(({ ctx }) => {
    const cookie = startGuestVisit(ctx.deps.appSecret, ctx.meta.deviceCookie);
    if (cookie) ctx.response.setDeviceCookie(cookie, new Date(Date.now() + DEVICE_COOKIE_TTL_MS));
    return { message: 'Guest visit started' };
  }),

  verifyPasskey: publicProcedure
    .input(passkeyInput)
    .output(validated(z.object({ valid: z.literal(true), message: z.string() })))
    .mutation(async ({ ctx, input }) => {
      const { db, logger } = ctx.deps;
      const owner = await guestPasskeyOwner(ctx, input.passkey);
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
