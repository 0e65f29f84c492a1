import type { Request, Response } from 'express';
import type { AppDeps } from '../domains/deps.ts';
import { DEVICE_COOKIE, SESSION_COOKIE, validateSessionToken } from '../domains/auth/service.ts';
import { authenticateToken, type TokenPrincipal } from '../domains/tokens/service.ts';
import { isDatabaseUnavailable } from '../platform/db/errors.ts';
import { AppError } from '../platform/errors.ts';
import type { Context, Principal } from './trpc.ts';

function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) {
      try {
        const value = decodeURIComponent(part.slice(index + 1).trim());
        // A cookie no server could have set counts as none; NUL must never reach a query.
        return value.includes('\0') ? undefined : value;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The value of `Authorization: Bearer <token>`, or undefined when the request sends no bearer token. */
export function bearerToken(req: Request): string | undefined {
  const match = /^Bearer(?:\s+(.*))?$/i.exec(req.headers.authorization?.trim() ?? '');
  return match ? (match[1] ?? '').trim() : undefined;
}

/** Who the request speaks for, and what went wrong finding out. */
interface Identity {
  user: Context['user'];
  sessionId: string | null;
  auth: Principal;
  tokenRefusal?: AppError;
  sessionUnknown: boolean;
}

/**
 * A request with a bearer token speaks for the token alone (a session cookie beside it is
 * ignored). A refused token is kept for the procedure to answer (401, 429), so that health still
 * reports; a 401 names the scheme in WWW-Authenticate. The token never reaches a log or an answer.
 */
async function tokenIdentity(deps: AppDeps, token: string, ip: string, res: Response): Promise<Identity> {
  const refused = (error: AppError): Identity => {
    if (error.code === 'UNAUTHORIZED') res.setHeader('WWW-Authenticate', 'Bearer realm="clipshift", error="invalid_token"');
    return { user: null, sessionId: null, auth: { kind: 'token', tokenId: '', scopes: [] }, tokenRefusal: error, sessionUnknown: false };
  };
  let principal: TokenPrincipal;
  try {
    principal = await authenticateToken(deps.db, token, ip);
  } catch (error) {
    if (error instanceof AppError) return refused(error);
    if (!isDatabaseUnavailable(error)) throw error;
    return { user: null, sessionId: null, auth: { kind: 'token', tokenId: '', scopes: [] }, sessionUnknown: true };
  }
  return { user: principal.user, sessionId: null, auth: { kind: 'token', tokenId: principal.tokenId, scopes: principal.scopes }, sessionUnknown: false };
}

async function sessionIdentity(deps: AppDeps, token: string | undefined, setSessionCookie: (token: string, expiresAt: Date) => void): Promise<Identity> {
  // With the database away the session cannot be checked: procedures answer 503 (health still
  // reports), rather than the lookup failing the whole request with a 500.
  let sessionUnknown = false;
  const session = token
    ? await validateSessionToken(deps.db, token).catch((error: unknown) => {
        if (!isDatabaseUnavailable(error)) throw error;
        sessionUnknown = true;
        return null;
      })
    : null;
  if (session?.renewed && token) setSessionCookie(token, session.expiresAt);
  return { user: session?.user ?? null, sessionId: session?.sessionId ?? null, auth: { kind: 'session' }, sessionUnknown };
}

/** Builds the procedure context of one HTTP request; both the REST and the tRPC adapter use it. */
export async function createRequestContext(deps: AppDeps, req: Request, res: Response): Promise<Context> {
  const secure = deps.env.publicUrl.startsWith('https:');
  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, secure, path: '/' };
  const setSessionCookie = (token: string, expiresAt: Date) => {
    res.cookie(SESSION_COOKIE, token, { ...cookieOptions, expires: expiresAt });
  };
  const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  const bearer = bearerToken(req);
  const identity = bearer === undefined ? await sessionIdentity(deps, readCookie(req, SESSION_COOKIE), setSessionCookie) : await tokenIdentity(deps, bearer, ip, res);
  return {
    deps,
    ...identity,
    meta: {
      ip,
      userAgent: req.headers['user-agent'],
      deviceCookie: readCookie(req, DEVICE_COOKIE),
    },
    response: {
      setSessionCookie,
      clearSessionCookie: () => res.clearCookie(SESSION_COOKIE, cookieOptions),
      // Only sign-in reads it, and no other site ever needs to send it.
      setDeviceCookie: (value, expiresAt) => res.cookie(DEVICE_COOKIE, value, { ...cookieOptions, sameSite: 'strict', path: '/api', expires: expiresAt }),
      setRetryAfter: (seconds) => res.setHeader('Retry-After', String(seconds)),
    },
  };
}
