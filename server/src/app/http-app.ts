import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';
import helmet from 'helmet';
import * as trpcExpress from '@trpc/server/adapters/express';
import { MAX_TRPC_BATCH } from '@clipshift/shared';
import { clipFilesRouter } from '../http/files.ts';
import type { AppDeps } from '../domains/deps.ts';
import { tiktokCallbackRouter } from '../http/tiktok-callback.ts';
import { createRestRouter } from '../http/rest/adapter.ts';
import { renderDocsPage } from '../http/rest/docs.ts';
import { httpError, sendError } from '../http/rest/errors.ts';
import { buildOpenApiDocument } from '../http/rest/openapi.ts';
import { rejectUndecodableUrls } from '../http/input.ts';
import { finalErrorHandler, limitTrpcBatches, rejectCrossSite, requireJsonBodies } from '../http/middleware.ts';
import { createRequestContext } from '../http/context.ts';
import { clientRouter } from '../http/static-assets.ts';
import { isServerFault } from '../http/errors.ts';
import { appRouter } from './router.ts';
import { FAULT_LOG_BUDGET, recordLog } from '../domains/logs/service.ts';

export const CLIENT_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../client/dist');
const JSON_BODY_LIMIT = '100kb';

function apiRouter(deps: AppDeps): express.Router {
  const api = express.Router();
  api.use(rejectUndecodableUrls(deps));
  api.use(requireJsonBodies(deps));
  api.use(rejectCrossSite(deps));
  api.use(express.json({ limit: JSON_BODY_LIMIT, strict: false }));
  api.use(
    '/trpc',
    limitTrpcBatches(deps),
    trpcExpress.createExpressMiddleware({
      router: appRouter,
      // limitTrpcBatches answers first with the contract's body; this is tRPC's own guard behind it.
      maxBatchSize: MAX_TRPC_BATCH,
      createContext: ({ req, res }) => createRequestContext(deps, req, res),
      onError: ({ error, path: procedurePath }) => {
        if (isServerFault(error)) {
          void recordLog(deps.db, deps.logger, {
            level: 'ERROR',
            logger: 'trpc',
            message: `${procedurePath ?? 'unknown procedure'} failed: ${error.cause?.message ?? error.message}`,
            error: error.cause ?? error,
            budget: FAULT_LOG_BUDGET,
          });
        }
      },
    }),
  );
  const openApi = buildOpenApiDocument(deps.env.publicUrl);
  api.get('/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  const docsPage = renderDocsPage(openApi);
  api.get('/docs', (_req, res) => {
    res.type('html').send(docsPage);
  });
  api.use(clipFilesRouter(deps));
  api.use(tiktokCallbackRouter(deps));
  api.use(createRestRouter(deps));
  api.use((req, res) => {
    void sendError(deps, req, res, httpError('NOT_FOUND', `No route ${req.method} /api${req.path}`));
  });
  api.use(finalErrorHandler(deps));
  return api;
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
  app.use('/api', apiRouter(deps));
  app.use(clientRouter(options.clientDist ?? CLIENT_DIST));
  app.use(finalErrorHandler(deps));
  return app;
}
