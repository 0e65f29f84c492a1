import { loginInput, publicUser, registerInput, registrationStatus } from '@clipshift/shared';
import { z } from 'zod';
import { anonymousLogBudget, recordLog } from '../../domains/logs/service.ts';
import { consumeRateLimit, RATE_LIMITS, waitInWords } from '../../platform/rate-limit.ts';
import { unauthorized } from '../../platform/errors.ts';
import { publicProcedure, router, validated } from '../trpc.ts';
import {
  checkCredentials,
  createSession,
  DEVICE_COOKIE_TTL_MS,
  getRegistrationStatus,
  guardLogin,
  INVALID_CREDENTIALS,
  invalidateSession,
  issueDeviceCookie,
  registerUser,
} from '../../domains/auth/service.ts';

const messageWithUser = z.object({ message: z.string(), user: publicUser });

export const authRouter = router({
  login: publicProcedure
    .input(loginInput)
    .output(validated(messageWithUser))
    .mutation(async ({ ctx, input }) => {
      const { db, logger, appSecret } = ctx.deps;
      const guard = await guardLogin(db, appSecret, ctx.meta, input.username);
      const result = await checkCredentials(db, input);
      if (!result.ok) {
        const lockedSeconds = await guard.failed();
        // Name the account only when it exists: a password typed into the username field
        // must never land in the log.
        await recordLog(db, logger, {
          level: 'WARNING',
          logger: 'auth',
          message: result.username
            ? `Failed sign-in attempt for ${result.username} from ${ctx.meta.ip}${guard.device ? ' (a browser that signed in before)' : ''}`
            : `Failed sign-in attempt for an unknown username from ${ctx.meta.ip}`,
          userId: result.userId,
          budget: anonymousLogBudget(result.userId),
        });
        if (lockedSeconds !== null && result.username) {
          await recordLog(db, logger, {
            level: 'WARNING',
            logger: 'auth',
            message: `Too many failed sign-in attempts for ${result.username}: sign-in is locked for ${waitInWords(lockedSeconds)}, except from browsers that signed in to it before`,
            userId: result.userId,
          });
        }
        throw unauthorized(INVALID_CREDENTIALS);
      }
      await guard.succeeded();
      // A new session on every login; the one the browser had (if any) ends.
      if (ctx.sessionId) await invalidateSession(db, ctx.sessionId);
      const session = await createSession(db, result.user.id);
      ctx.response.setSessionCookie(session.token, session.expiresAt);
      ctx.response.setDeviceCookie(issueDeviceCookie(appSecret, ctx.meta.deviceCookie, guard.accountKey), new Date(Date.now() + DEVICE_COOKIE_TTL_MS));
      await recordLog(db, logger, {
        level: 'INFO',
        logger: 'auth',
        message: `${result.user.username} signed in`,
        userId: result.user.id,
      });
      return { message: 'Login successful', user: result.user };
    }),

  register: publicProcedure
    .input(registerInput)
    .output(validated(messageWithUser))
    .mutation(async ({ ctx, input }) => {
      const { db, logger, env } = ctx.deps;
      await consumeRateLimit(db, `register:${ctx.meta.ip}`, RATE_LIMITS.register);
      const { user, first } = await registerUser(db, env.REGISTRATION_MODE, input);
      await recordLog(db, logger, {
        level: 'INFO',
        logger: 'auth',
        message: first ? `${user.username} registered as the first user and administrator` : `${user.username} registered`,
        userId: user.id,
      });
      return { message: 'Registration successful', user };
    }),

  registrationStatus: publicProcedure
    .output(validated(registrationStatus))
    .query(({ ctx }) => getRegistrationStatus(ctx.deps.db, ctx.deps.env.REGISTRATION_MODE)),

  logout: publicProcedure.output(validated(z.object({ message: z.string() }))).mutation(async ({ ctx }) => {
    if (ctx.sessionId) {
      await invalidateSession(ctx.deps.db, ctx.sessionId);
      if (ctx.user) {
        await recordLog(ctx.deps.db, ctx.deps.logger, {
          level: 'INFO',
          logger: 'auth',
          message: `${ctx.user.username} signed out`,
          userId: ctx.user.id,
        });
      }
    }
    ctx.response.clearSessionCookie();
    return { message: 'Logged out successfully' };
  }),

  checkAuth: publicProcedure
    .output(validated(z.union([z.object({ authenticated: z.literal(true), user: publicUser }), z.object({ authenticated: z.literal(false) })])))
    .query(({ ctx }) => (ctx.user ? { authenticated: true as const, user: ctx.user } : { authenticated: false as const })),
});
