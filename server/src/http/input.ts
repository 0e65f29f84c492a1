import type { NextFunction, Request, Response } from 'express';
import type { AppDeps } from '../domains/deps.ts';
import { httpError, sendError } from './rest/errors.ts';

export const BAD_URL_MESSAGE = 'The request URL is not validly %-encoded';
/** PostgreSQL text cannot hold NUL, so such input is refused before it gets near a query. */
export const NUL_BYTE_MESSAGE = 'The request contains a NUL byte';
export const BAD_BODY_MESSAGE = 'The request body could not be decoded';

/** Whether any string or key of a parsed JSON value holds a NUL byte. Iterative: a body may nest thousands deep. */
export function containsNulByte(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (item.includes('\0')) return true;
    } else if (Array.isArray(item)) {
      // One by one: spreading a very long array into push() would overflow the call stack.
      for (const child of item) pending.push(child);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (key.includes('\0')) return true;
        pending.push(child);
      }
    }
  }
  return false;
}

/** The request line decoded as a whole, or null when a %-escape is malformed or is not UTF-8. */
function decodedUrl(url: string): string | null {
  try {
    return decodeURIComponent(url);
  } catch {
    return null;
  }
}

/**
 * Path and query must decode, and must not carry a NUL byte: checked once here, before routing,
 * so that no route, parameter or query value ever sees such input.
 */
export function rejectUndecodableUrls(deps: AppDeps) {
  return (req: Request, res: Response, next: NextFunction) => {
    const decoded = decodedUrl(req.originalUrl);
    if (decoded === null) {
      void sendError(deps, req, res, httpError('BAD_REQUEST', BAD_URL_MESSAGE));
      return;
    }
    if (decoded.includes('\0')) {
      void sendError(deps, req, res, httpError('BAD_REQUEST', NUL_BYTE_MESSAGE));
      return;
    }
    next();
  };
}
