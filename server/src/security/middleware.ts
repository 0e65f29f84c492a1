import type { NextFunction, Request, Response } from 'express';
import type { AppDeps } from '../deps.ts';
import { httpError, sendError } from '../rest/errors.ts';

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

interface BodyParserError {
  type?: string;
  status?: number;
}

/** Last handler: body-parser failures and anything unexpected, always as the JSON error body. */
export function finalErrorHandler(deps: AppDeps) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const parserError = error as BodyParserError;
    if (parserError.type === 'entity.too.large') {
      void sendError(deps, req, res, httpError('PAYLOAD_TOO_LARGE', 'Request body is too large'));
    } else if (parserError.type === 'entity.parse.failed') {
      void sendError(deps, req, res, httpError('BAD_REQUEST', 'Request body is not valid JSON'));
    } else if (parserError.type === 'encoding.unsupported' || parserError.type === 'charset.unsupported') {
      void sendError(deps, req, res, httpError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding'));
    } else {
      const message = error instanceof Error ? error.message : 'Unexpected error';
      void sendError(deps, req, res, httpError('INTERNAL_SERVER_ERROR', message, error));
    }
  };
}
