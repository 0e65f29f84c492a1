import { ACCOUNT_PLATFORMS, TWITCH_AUTH_MESSAGE } from '@clipshift/shared';
import { Router, type Response } from 'express';
import type { AppDeps } from '../domains/deps.ts';
import { createRequestContext } from './context.ts';
import { callbackPage, completeAuthorization, openerMessagePage, type CallbackResult } from '../domains/publishing/service.ts';
import { completeTwitchAuthorization } from '../domains/twitch/service.ts';

/** 200 connected; 503 the database is away (start again later); 400 any other failure. */
const statusOf = (result: CallbackResult) => (result.success ? 200 : result.unavailable ? 503 : 400);

/** Every platform accounts can be connected from has its callback here (and its rows' budget with it). */
export const OAUTH_CALLBACK_PLATFORMS = ACCOUNT_PLATFORMS;

function sendPage(res: Response, result: CallbackResult, page: { html: string; csp: string }): void {
  res.status(statusOf(result));
  res.setHeader('Content-Security-Policy', page.csp);
  // The popup arrives here from the platform's origin; any stricter opener policy would cut it
  // off from the window that opened it, and the message could never be delivered.
  res.setHeader('Cross-Origin-Opener-Policy', 'unsafe-none');
  res.setHeader('Cache-Control', 'no-store');
  res.type('html').send(page.html);
}

/**
 * GET /api/{platform}/callback for every platform: where the platform sends the popup back; each
 * answers the page that tells the opener ({type:'<platform>-auth', success, error?}). The user's
 * own Twitch account comes back the same way ({type:'twitch-auth'}).
 */
export function oauthCallbackRouter(deps: AppDeps): Router {
  const router = Router();
  for (const platform of OAUTH_CALLBACK_PLATFORMS) {
    router.get(`/${platform}/callback`, async (req, res) => {
      const ctx = await createRequestContext(deps, req, res);
      // The popup comes back with the browser's cookie; a bearer token never connects an account (access.ts).
      const userId = ctx.auth.kind === 'session' ? (ctx.user?.id ?? null) : null;
      const result = await completeAuthorization(deps, req.query as Record<string, unknown>, userId, platform);
      sendPage(res, result, callbackPage(result, deps.env.publicOrigin, platform));
    });
  }
  router.get('/twitch/callback', async (req, res) => {
    const ctx = await createRequestContext(deps, req, res);
    const userId = ctx.auth.kind === 'session' ? (ctx.user?.id ?? null) : null;
    const result = await completeTwitchAuthorization(deps, req.query as Record<string, unknown>, userId);
    sendPage(res, result, openerMessagePage(result, deps.env.publicOrigin, { label: 'Twitch', type: TWITCH_AUTH_MESSAGE }));
  });
  return router;
}
