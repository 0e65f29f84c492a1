import express from 'express';
import * as trpcExpress from '@trpc/server/adapters/express';
import { MAX_TRPC_BATCH } from '@clipshift/shared';
import type { AppDeps } from '../domains/deps.ts';
import { FAULT_LOG_BUDGET, recordLog } from '../domains/logs/service.ts';
import { createRequestContext } from './context.ts';
import { isServerFault } from './errors.ts';
import { approvalLinkFilesRouter, clipFilesRouter, mediaLinkRouter } from './files.ts';
import { metricsRouter } from './metrics.ts';
import { rejectUndecodableUrls } from './input.ts';
import { finalErrorHandler, limitTrpcBatches, rejectCrossSite, requireJsonBodies } from './middleware.ts';
import { createRestRouter } from './rest/adapter.ts';
import { renderDocsPage } from './rest/docs.ts';
import { httpError, sendError } from './rest/errors.ts';
import { buildOpenApiDocument } from './rest/openapi.ts';
import { appRouter } from './router.ts';
import { streamerLogoRouter } from './streamer-logo.ts';
import { studioImagesRouter } from './studio-images.ts';
import { oauthCallbackRouter } from './oauth-callback.ts';

const JSON_BODY_LIMIT = '100kb';

/** Everything under /api: the tRPC endpoint, the REST routes, file serving, OAuth callbacks, the docs. */
export function createApiRouter(deps: AppDeps): express.Router {
  const api = express.Router();
  api.use(rejectUndecodableUrls(deps));
  // Its body is an image: it comes before the JSON-only guard (it refuses other bodies itself).
  api.use(streamerLogoRouter(deps));
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
  api.use(metricsRouter(deps));
  api.use(mediaLinkRouter(deps));
  api.use(approvalLinkFilesRouter(deps));
  api.use(clipFilesRouter(deps));
  api.use(studioImagesRouter(deps));
  api.use(oauthCallbackRouter(deps));
  api.use(createRestRouter(deps));
  api.use((req, res) => {
    void sendError(deps, req, res, httpError('NOT_FOUND', `No route ${req.method} /api${req.path}`));
  });
  api.use(finalErrorHandler(deps));
  return api;
}
