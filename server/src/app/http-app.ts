import type { Server } from 'node:http';
import express, { type Express } from 'express';
import { AVATAR_HOSTS } from '@clipshift/shared';
import helmet from 'helmet';
import type { AppDeps } from '../domains/deps.ts';
import { createApiRouter } from '../http/api.ts';
import { answerUnreadableRequests } from '../http/client-errors.ts';
import { httpMetrics } from '../http/metrics.ts';
import { finalErrorHandler } from '../http/middleware.ts';
import { clientRouter } from '../http/static-assets.ts';
import { appPath } from '../platform/paths.ts';

export const CLIENT_DIST = appPath('client/dist');

/** Pictures load from the app itself and, for connected accounts' avatars, from the platforms' picture hosts only. */
// Instagram and Facebook share Meta's CDN: each host named once.
const IMAGE_SOURCES = ["'self'", 'data:', 'blob:', ...new Set(Object.values(AVATAR_HOSTS).flatMap((hosts) => hosts.map((host) => `https://${host}`)))];

export function createApp(deps: AppDeps, options: { clientDist?: string } = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.env.TRUST_PROXY);
  // Timed only when someone can read the figures (GET /api/metrics is on).
  if (deps.env.METRICS_TOKEN) app.use(httpMetrics());
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          imgSrc: IMAGE_SOURCES,
          mediaSrc: ["'self'", 'blob:'],
          styleSrc: ["'self'", "'unsafe-inline'"],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: deps.env.publicUrl.startsWith('https:') ? [] : null,
        },
      },
      // The OAuth popup talks to its opener, which needs the opener kept.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      strictTransportSecurity: deps.env.publicUrl.startsWith('https:'),
    }),
  );
  app.use('/api', createApiRouter(deps));
  app.use(clientRouter(options.clientDist ?? CLIENT_DIST));
  app.use(finalErrorHandler(deps));
  return app;
}

/**
 * The app listening on a port, answering what node's HTTP parser refuses (oversized headers: 431)
 * with the JSON error body too. Resolves once it listens.
 */
export function listenApp(app: Express, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (error?: Error) => (error ? reject(error) : resolve(server)));
    answerUnreadableRequests(server);
  });
}
