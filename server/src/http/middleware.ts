import type { NextFunction, Request, Response } from 'express';
import type { TRPCError } from '@trpc/server';
import { MAX_TRPC_BATCH } from '@clipshift/shared';
import type { AppDeps } from '../domains/deps.ts';
import { httpError, sendError } from './rest/errors.ts';
import { BAD_BODY_MESSAGE, BAD_URL_MESSAGE } from './input.ts';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/** A state-changing request naming an Origin other than the app's own. */
function isCrossSite(deps: AppDeps, req: Request): boolean {
  const origin = req.headers.origin;
  return STATE_CHANGING.has(req.method) && origin !== undefined && origin !== deps.env.publicOrigin;
}

/**
 * POST/PUT bodies must be JSON: anything else is refused with 415 before it is read. A cross-site
 * request is answered with rejectCrossSite's 403 first, so that a forged form post gets the
 * contract's 403 (not 415) whichever order the two are mounted in.
 */
export function requireJsonBodies(deps: AppDeps) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (isCrossSite(deps, req)) {
      rejectCrossSite(deps)(req, res, next);
      return;
    }
    if (STATE_CHANGING.has(req.method) && hasBody(req) && !req.is('application/json')) {
      void sendError(deps, req, res, httpError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be JSON (Content-Type: application/json)'));
      return;
    }
    next();
  };
}

/**
 * A state-changing request that names a foreign Origin is refused (403). Requests without an
 * Origin header (scripts, curl) are judged by their cookie alone.
 */
export function rejectCrossSite(deps: AppDeps) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (isCrossSite(deps, req)) {
      void sendError(deps, req, res, httpError('FORBIDDEN', 'Cross-site request refused'));
      return;
    }
    next();
  };
}

/** What Express, its router and body-parser attach to the errors they raise (http-errors). */
interface HttpLayerError {
  type?: string;
  status?: number;
  statusCode?: number;
}

/**
 * The client error behind a failure of Express itself, or null for a fault. Body-parser and the
 * router mark client errors with a 4xx status: a body that is not JSON or cannot be inflated, a
 * path parameter that cannot be decoded.
 */
export function clientErrorOf(error: unknown): TRPCError | null {
  const layerError = (error ?? {}) as HttpLayerError;
  const status = layerError.status ?? layerError.statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499) return null;
  if (layerError.type === 'entity.too.large' || status === 413) return httpError('PAYLOAD_TOO_LARGE', 'Request body is too large');
  if (layerError.type === 'entity.parse.failed') return httpError('BAD_REQUEST', 'Request body is not valid JSON');
  if (layerError.type === 'encoding.unsupported' || layerError.type === 'charset.unsupported' || status === 415) {
    return httpError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding');
  }
  if (error instanceof URIError) return httpError('BAD_REQUEST', BAD_URL_MESSAGE);
  return httpError('BAD_REQUEST', BAD_BODY_MESSAGE);
}

/** Last handler: client errors of the HTTP layer as 4xx, anything unexpected as a 500, always the JSON error body. */
export function finalErrorHandler(deps: AppDeps) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const clientError = clientErrorOf(error);
    if (clientError) {
      void sendError(deps, req, res, clientError);
    } else {
      const message = error instanceof Error ? error.message : 'Unexpected error';
      void sendError(deps, req, res, httpError('INTERNAL_SERVER_ERROR', message, error));
    }
  };
}

/** How many calls a tRPC request carries: a batch names them comma-separated in its last path segment. */
function trpcCallCount(req: Request): number {
  const query = req.originalUrl.split('?')[1] ?? '';
  // tRPC reads the flag with URLSearchParams (the first value) and decodes the segment: so do we.
  if (new URLSearchParams(query).get('batch') !== '1') return 1;
  const segment = req.path.slice(req.path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(segment).split(',').length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** A batch beyond MAX_TRPC_BATCH calls is refused before any of them runs. */
export function limitTrpcBatches(deps: AppDeps) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (trpcCallCount(req) > MAX_TRPC_BATCH) {
      void sendError(deps, req, res, httpError('BAD_REQUEST', `A tRPC batch carries at most ${MAX_TRPC_BATCH} calls`));
      return;
    }
    next();
  };
}
