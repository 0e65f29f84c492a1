import { ACCOUNT_PLATFORMS } from '@clipshift/shared';
import { Router } from 'express';
import type { AppDeps } from '../domains/deps.ts';
import { createRequestContext } from './context.ts';
import { callbackPage, completeAuthorization, type CallbackResult } from '../domains/publishing/service.ts';

/** 200 connected; 503 the database is away (start again later); 400 any other failure. */
const statusOf = (result: CallbackResult) => (result.success ? 200 : result.unavailable ? 503 : 400);

/** Every platform accounts can be connected from has its callback here (and its rows' budget with it). */
export const OAUTH_CALLBACK_PLATFORMS = ACCOUNT_PLATFORMS;

/**
 * GET /api/{platform}/callback for every platform: where the platform sends the popup back; each
 * answers the page that tells the opener ({type:'<platform>-auth', success, error?}).
 */
export function oauthCallbackRouter(deps: AppDeps): Router {
  const router = Router();
  for (const platform of OAUTH_CALLBACK_PLATFORMS) {
    router.get(`/${platform}/callback`, async (req, res) => {
      const ctx = await createRequestContext(deps, req, res);
      // The popup comes back with the browser's cookie; a bearer token never connects an account (access.ts).
      const userId = ctx.auth.kind === 'session' ? (ctx.user?.id ?? null) : null;
      const result = await completeAuthorization(deps, req.query as Record<string, unknown>, userId, platform);
      const page = callbackPage(result, deps.env.publicOrigin, platform);
      res.status(statusOf(result));
      res.setHeader('Content-Security-Policy', page.csp);
      // The popup arrives here from the platform's origin; any stricter opener policy would cut it
      // off from the window that opened it, and the message could never be delivered.
      res.setHeader('Cross-Origin-Opener-Policy', 'unsafe-none');
      res.setHeader('Cache-Control', 'no-store');
      res.type('html').send(page.html);
    });
  }
  return router;
}
