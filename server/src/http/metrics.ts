import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppDeps } from '../domains/deps.ts';
import { collectProcessMetrics, databaseUp, httpRequestDuration, jobsByState, metricsRegistry } from '../platform/metrics.ts';
import { jobCountsByState } from '../platform/queue/queue.ts';
import { httpError, sendError } from './rest/errors.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares digests, so neither the token's length nor its prefix leaks through timing. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}

/**
 * GET /api/metrics, Prometheus text for operators. Off (the API's 404, as for any unknown route)
 * unless METRICS_TOKEN is set; then only with `Authorization: Bearer <METRICS_TOKEN>`. Left out of
 * /api/openapi.json on purpose: it is an operator's endpoint, not part of the app's API
 * (docs/decisions/0018-production-build.md).
 */
export function metricsRouter(deps: AppDeps): Router {
  const router = Router();
  const token = deps.env.METRICS_TOKEN;
  if (!token) return router;
  collectProcessMetrics();
  const expected = digest(token);
  router.get('/metrics', async (req, res) => {
    if (!bearerMatches(req.headers.authorization, expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      await sendError(deps, req, res, httpError('UNAUTHORIZED', 'GET /api/metrics needs the header Authorization: Bearer <METRICS_TOKEN>'));
      return;
    }
    // Counts of a stopped queue would mislead: during an outage the gauge is empty and clipshift_database_up is 0.
    jobsByState.reset();
    try {
      for (const { task, state, count } of await jobCountsByState(deps.db)) jobsByState.set({ task, state }, count);
      databaseUp.set(1);
    } catch (error) {
      deps.logger.warn({ err: error }, 'metrics: the job queue could not be read');
      databaseUp.set(0);
    }
    res.setHeader('Content-Type', metricsRegistry.contentType);
    res.send(await metricsRegistry.metrics());
  });
  return router;
}

/**
 * The route label of a finished request: the pattern Express matched ("/api/clips/:id/video"), never
 * the raw URL, so that the series stay few whatever clients ask for.
 */
function routeLabel(req: Request): string {
  const pattern = req.route?.path;
  if (typeof pattern === 'string') return `${req.baseUrl}${pattern}`;
  const url = req.originalUrl;
  if (url.startsWith('/api/trpc')) return '/api/trpc';
  if (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')) return '/api (no route)';
  return '(client)';
}

/** Records every request's duration by method, route pattern and status. */
export function httpMetrics() {
  return (req: Request, res: Response, next: NextFunction) => {
    const end = httpRequestDuration.startTimer();
    res.once('finish', () => end({ method: req.method, route: routeLabel(req), status: String(res.statusCode) }));
    next();
  };
}
