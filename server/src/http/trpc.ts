import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError, type z } from 'zod';
import type { PublicUser, TokenScope } from '@clipshift/shared';
import type { AppDeps } from '../domains/deps.ts';
import { isDatabaseUnavailable } from '../platform/db/errors.ts';
import { containsNulByte, NUL_BYTE_MESSAGE } from './input.ts';
import { RateLimited } from '../platform/rate-limit.ts';
import { badRequest, databaseUnavailable, forbidden, unauthorized, type AppError } from '../platform/errors.ts';
import { accessOf, assertTokenMay, type AccessKey } from './access.ts';
import { appErrorOf, toErrorResponse, toTRPCError } from './errors.ts';

interface RequestMeta {
  /** The client's address (behind a proxy only when TRUST_PROXY is set). */
  ip: string;
  userAgent: string | undefined;
  /** The sign-in device cookie (auth/device-cookie.ts), as sent. */
  deviceCookie: string | undefined;
}

/** What a procedure may do to the HTTP answer, whichever adapter (REST or tRPC) carries it. */
interface ResponseControls {
  setSessionCookie(token: string, expiresAt: Date): void;
  clearSessionCookie(): void;
  setDeviceCookie(value: string, expiresAt: Date): void;
  setRetryAfter(seconds: number): void;
}

/**
 * Who a request speaks for: a browser session (`user` null when signed out), or an API token
 * (`user` its owner), which may call only what its scopes cover (access.ts).
 */
export type Principal = { kind: 'session' } | { kind: 'token'; tokenId: string; scopes: readonly TokenScope[] };

export interface Context {
  deps: AppDeps;
  user: PublicUser | null;
  auth: Principal;
  /** A bearer token that was refused (unknown, revoked, expired: 401; too many: 429); every procedure but health answers it. */
  tokenRefusal?: AppError;
  sessionId: string | null;
  meta: RequestMeta;
  response: ResponseControls;
  /** The session could not be looked up because the database is unreachable (the request gets 503). */
  sessionUnknown?: boolean;
}

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const { body } = toErrorResponse(error);
    return {
      ...shape,
      message: body.message,
      data: {
        ...shape.data,
        stack: undefined,
        restCode: body.code,
        issues: body.issues,
      },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Domains throw AppErrors, which tRPC would answer as 500s: every procedure answers them with their
 * own code instead (http/errors.ts holds the mapping), so callers inside the process see it too.
 */
const appErrorsKeepTheirCode = t.middleware(async ({ next }) => {
  const result = await next();
  return result.ok ? result : { ...result, error: toTRPCError(result.error) };
});

/**
 * tRPC's input-validation error carries zod's JSON dump as its message. Replace it with the first
 * rule's human message (the one the REST body and the tRPC error shape show), so that server-side
 * callers (createCaller, jobs, tests) see the same text a client does. The ZodError stays the cause.
 */
const humanValidationMessages = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.code === 'BAD_REQUEST' && !appErrorOf(result.error) && result.error.cause instanceof ZodError) {
    const message = result.error.cause.issues[0]?.message ?? 'Invalid input';
    return { ...result, error: new TRPCError({ code: 'BAD_REQUEST', message, cause: result.error.cause }) };
  }
  return result;
});

/**
 * PostgreSQL text cannot hold NUL: any string of the input (JSON bodies, tRPC's query input) that
 * carries one is refused before the procedure runs. URLs are checked earlier (rejectUndecodableUrls).
 */
const rejectNulBytes = t.middleware(async ({ getRawInput, next }) => {
  if (containsNulByte(await getRawInput())) throw badRequest(NUL_BYTE_MESSAGE);
  return next();
});

/** A throttled call says when to come back (Retry-After), over REST and tRPC alike. */
const retryAfterHeader = t.middleware(async ({ ctx, next }) => {
  const result = await next();
  if (result.ok) return result;
  const appError = appErrorOf(result.error);
  if (appError instanceof RateLimited) ctx.response.setRetryAfter(appError.retryAfterSeconds);
  return result;
});

/** A procedure failing because the database is unreachable answers 503, over tRPC and REST alike. */
const databaseOutagesAre503 = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && !appErrorOf(result.error) && isDatabaseUnavailable(result.error.cause ?? result.error)) {
    return { ...result, error: toTRPCError(databaseUnavailable(result.error.cause ?? result.error)) };
  }
  return result;
});

/**
 * Whether the request may call `key`: a refused token answers its refusal, a token beyond its
 * scopes 403; sessions are judged by the procedure itself (signed in, administrator).
 */
export function checkAccess(ctx: Pick<Context, 'auth' | 'tokenRefusal'>, key: AccessKey | string, kind: 'query' | 'mutation' | 'subscription'): void {
  if (ctx.tokenRefusal) throw ctx.tokenRefusal;
  if (ctx.auth.kind === 'token') assertTokenMay(ctx.auth.scopes, accessOf(key, kind));
}

/** Needs nothing of the request's session: health answers even when the session cannot be looked up. */
export const probeProcedure = t.procedure.use(appErrorsKeepTheirCode).use(rejectNulBytes).use(humanValidationMessages).use(databaseOutagesAre503);

export const publicProcedure = probeProcedure.use(retryAfterHeader).use(({ ctx, path, type, next }) => {
  if (ctx.sessionUnknown) throw databaseUnavailable();
  checkAccess(ctx, path, type);
  return next();
});

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw unauthorized();
  return next({ ctx: { ...ctx, user: ctx.user } });
});

export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!ctx.user.is_admin) throw forbidden('This action needs an administrator account');
  return next();
});

/** A procedure's output schema, parsed synchronously (see validated). */
export interface ValidatedOutput<T extends z.ZodType> {
  /** What the OpenAPI document describes the answer with. */
  schema: T;
  parse(value: unknown): z.output<T>;
}

/**
 * The output check of a procedure. tRPC parses a zod output with parseAsync, and zod then skips the
 * compiled fast path it has for objects: a page of 50 clips took a tenth of the process's CPU to
 * check. Our output schemas have no async refinements, so they are parsed synchronously.
 */
export function validated<T extends z.ZodType>(schema: T): ValidatedOutput<T> {
  return { schema, parse: (value) => schema.parse(value) };
}
