import type { Request, Response } from 'express';
import { TRPCError } from '@trpc/server';
import type { ErrorBody, ErrorCode } from '@clipshift/shared';
import type { AppDeps } from '../../domains/deps.ts';
import { FAULT_LOG_BUDGET, recordLog } from '../../domains/logs/service.ts';
import { isServerFault, toErrorResponse, toTRPCError } from '../errors.ts';

/**
 * Writes the error body. A file route may have labelled the answer (video/mp4, attachment) before it
 * failed: an error is always JSON and never a download.
 */
function writeErrorBody(res: Response, status: number, body: ErrorBody & Record<string, unknown>): void {
  if (res.headersSent) return;
  res.removeHeader('Content-Disposition');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.status(status).json(body);
}

function decodedSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * The path as logged: a credential in it (a media link's or an approval link's token, a segment
 * of its own) never reaches a log.
 */
function loggedPath(req: Request): string {
  const token = req.params?.token;
  if (typeof token !== 'string') return req.path;
  return req.path
    .split('/')
    .map((segment) => (decodedSegment(segment) === token ? '{token}' : segment))
    .join('/');
}

function logClientError(deps: AppDeps, req: Request, status: number, body: ErrorBody): void {
  deps.logger.info({ method: req.method, path: loggedPath(req), status, code: body.code }, body.message);
}

/**
 * Answers with the contract's error body. Unexpected faults are logged with their stack (the user
 * sees only a plain message), a bounded sample of them in the logs table; client mistakes go to
 * stdout only.
 */
export async function sendError(deps: AppDeps, req: Request, res: Response, thrown: unknown, fields?: Record<string, unknown>): Promise<void> {
  const error = toTRPCError(thrown);
  const { status, body } = toErrorResponse(error, fields);
  if (isServerFault(error)) {
    await recordLog(deps.db, deps.logger, {
      level: 'ERROR',
      logger: 'http',
      message: `${req.method} ${loggedPath(req)} failed: ${error.cause instanceof Error ? error.cause.message : error.message}`,
      error: error.cause ?? error,
      budget: FAULT_LOG_BUDGET,
    });
  } else {
    logClientError(deps, req, status, body);
  }
  writeErrorBody(res, status, body);
}

/** A client error with a status tRPC has no code for (416), in the same shape. */
export function sendClientError(deps: AppDeps, req: Request, res: Response, status: number, code: ErrorCode, message: string): void {
  const body = { error: message, message, code };
  logClientError(deps, req, status, body);
  writeErrorBody(res, status, body);
}

/** Errors raised before a procedure runs (body parsing, size, media type), in the same shape. */
export function httpError(code: TRPCError['code'], message: string, cause?: unknown): TRPCError {
  return new TRPCError({ code, message, cause });
}
