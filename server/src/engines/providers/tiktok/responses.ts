import { isRecord } from '../http/runtime.ts';
import type { z } from 'zod';
import { errorFromCode, explainTikTokError, TikTokError } from './errors.ts';

/*
 * Reading TikTok's two answer shapes (external-apis.md B2, B4):
 * - OAuth endpoints: flat JSON; an error is `{"error":"invalid_grant","error_description":…,"log_id":…}`
 * - v2 endpoints: `{"data":{…},"error":{"code":"ok"|<code>,"message":…,"log_id":…}}`
 * An error is recognised by its body, whatever the HTTP status: TikTok's HTTP status for OAuth errors
 * is unconfirmed, and creator_info sends spam_risk_* with HTTP 200 on purpose.
 */

interface TikTokErrorBody {
  code: string;
  message: string;
  logId: string | null;
}

const stringOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/** The error a body carries in either shape, or null for a success (v2 `code: "ok"`, or no error at all). */
export function extractError(body: unknown): TikTokErrorBody | null {
  if (!isRecord(body)) return null;
  const { error } = body;
  if (typeof error === 'string' && error) {
    return { code: error, message: stringOr(body.error_description, ''), logId: stringOrNull(body.log_id) };
  }
  if (isRecord(error) && typeof error.code === 'string' && error.code && error.code !== 'ok') {
    return { code: error.code, message: stringOr(error.message, ''), logId: stringOrNull(error.log_id) };
  }
  return null;
}

export function logIdOf(body: unknown): string | null {
  if (!isRecord(body)) return null;
  if (isRecord(body.error)) return stringOrNull(body.error.log_id);
  return stringOrNull(body.log_id);
}

/** A typed error from a body's error, or from the bare status when the body says nothing usable. */
export function errorFromBody(what: string, status: number, body: unknown): TikTokError {
  const error = extractError(body);
  if (error) {
    const said = error.message ? `: ${error.message}` : '';
    return errorFromCode(error.code, { httpStatus: status, logId: error.logId, detail: `${what} → HTTP ${status} ${error.code}${said}` });
  }
  return errorFromStatus(what, status, logIdOf(body));
}

function errorFromStatus(what: string, status: number, logId: string | null): TikTokError {
  const detail = `${what} → HTTP ${status} without a TikTok error code`;
  if (status === 401) return errorFromCode('access_token_invalid', { httpStatus: status, logId, detail });
  if (status === 429) return errorFromCode('rate_limit_exceeded', { httpStatus: status, logId, detail });
  if (status >= 500) return errorFromCode('internal_error', { httpStatus: status, logId, detail });
  return new TikTokError('upstream', explainTikTokError('bad_response'), { code: 'bad_response', httpStatus: status, logId, detail });
}

export function parseWith<S extends z.ZodType>(what: string, status: number, body: unknown, schema: S): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? ` at ${issue.path.join('.') || '(root)'}: ${issue.message}` : '';
    throw new TikTokError('upstream', explainTikTokError('bad_response'), {
      code: 'bad_response',
      httpStatus: status,
      logId: logIdOf(body),
      detail: `${what} returned a response we do not understand${where}`,
    });
  }
  return parsed.data;
}

/** JSON body of a response, or undefined when it is empty or not JSON (a proxy's HTML page). */
export async function readJson(response: Response): Promise<unknown> {
  return (await readJsonAndText(response)).json;
}

/** The body as text and as JSON: the text is kept where JSON numbers would lose int64 precision. */
export async function readJsonAndText(response: Response): Promise<{ json: unknown; text: string }> {
  const text = await response.text().catch(() => '');
  if (!text.trim()) return { json: undefined, text };
  try {
    return { json: JSON.parse(text) as unknown, text };
  } catch {
    return { json: undefined, text };
  }
}

