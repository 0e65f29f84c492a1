import type { Request, Response } from 'express';
import type { AppDeps } from '../domains/deps.ts';
import { DEVICE_COOKIE, SESSION_COOKIE, validateSessionToken } from '../domains/auth/service.ts';
import { isDatabaseUnavailable } from '../platform/db/errors.ts';
import type { Context } from './trpc.ts';

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

/** Builds the procedure context of one HTTP request; both the REST and the tRPC adapter use it. */
export async function createRequestContext(deps: AppDeps, req: Request, res: Response): Promise<Context> {
  const secure = deps.env.publicUrl.startsWith('https:');
  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, secure, path: '/' };
  const setSessionCookie = (token: string, expiresAt: Date) => {
    res.cookie(SESSION_COOKIE, token, { ...cookieOptions, expires: expiresAt });
  };
  const token = readCookie(req, SESSION_COOKIE);
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
  return {
    deps,
    sessionUnknown,
    user: session?.user ?? null,
    sessionId: session?.sessionId ?? null,
    meta: {
      ip: req.ip ?? req.socket.remoteAddress ?? 'unknown',
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
