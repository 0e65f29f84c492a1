/** Machine codes of the REST error body (rest-api.md "General rules"). */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_SUPPORTED'
  | 'CONFLICT'
  | 'TOO_MANY_REQUESTS'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RANGE_NOT_SATISFIABLE'
  | 'REQUEST_HEADER_FIELDS_TOO_LARGE'
  | 'INTERNAL_SERVER_ERROR'
  | 'BAD_GATEWAY'
  | 'SERVICE_UNAVAILABLE';

export interface ErrorBody {
  error: string;
  message: string;
  code: ErrorCode;
  issues?: { path: (string | number)[]; message: string }[];
}

/** The message a fetch shows for a non-OK answer: the server's, else 'HTTP error! status: N'. */
export function messageFromErrorBody(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    if (typeof record.message === 'string' && record.message) return record.message;
    if (typeof record.error === 'string' && record.error) return record.error;
  }
  return `HTTP error! status: ${status}`;
}
