import type { Request, Response } from 'express';
import { TRPCError } from '@trpc/server';
import type { AppDeps } from '../deps.ts';
import { FAULT_LOG_BUDGET, recordLog } from '../logs/service.ts';
import { isServerFault, toErrorResponse } from '../trpc/errors.ts';

/**
 * Answers with the contract's error body. Unexpected faults are logged with their stack (the user
 * sees only a plain message), a bounded sample of them in the logs table; client mistakes go to
 * stdout only.
 */
export async function sendError(deps: AppDeps, req: Request, res: Response, error: TRPCError): Promise<void> {
  const { status, body } = toErrorResponse(error);
  if (isServerFault(error)) {
    await recordLog(deps.db, deps.logger, {
      level: 'ERROR',
      logger: 'http',
      message: `${req.method} ${req.path} failed: ${error.cause instanceof Error ? error.cause.message : error.message}`,
      error: error.cause ?? error,
      budget: FAULT_LOG_BUDGET,
    });
  } else {
    deps.logger.info({ method: req.method, path: req.path, status, code: body.code }, body.message);
  }
  if (!res.headersSent) res.status(status).json(body);
}

/** Errors raised before a procedure runs (body parsing, size, media type), in the same shape. */
export function httpError(code: TRPCError['code'], message: string, cause?: unknown): TRPCError {
  return new TRPCError({ code, message, cause });
}
