import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';
import helmet from 'helmet';
import type { AppDeps } from '../domains/deps.ts';
import { createApiRouter } from '../http/api.ts';
import { finalErrorHandler } from '../http/middleware.ts';

export const CLIENT_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../client/dist');

/** Serves the built browser client with history fallback, when it has been built. */
function clientRouter(distDir: string): express.Router {
  const client = express.Router();
  if (!existsSync(path.join(distDir, 'index.html'))) return client;
  client.use(express.static(distDir, { index: false, maxAge: '1h', setHeaders: immutableAssets }));
  client.get(/.*/, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(path.join(distDir, 'index.html'));
  });
  return client;
}

function immutableAssets(res: express.Response, filePath: string) {
  if (filePath.includes(`${path.sep}assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
}

export function createApp(deps: AppDeps, options: { clientDist?: string } = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.env.TRUST_PROXY);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
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
