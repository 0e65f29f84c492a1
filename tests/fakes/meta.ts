import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isObject, readText, sendText } from './http.ts';

/*
 * What the Instagram and Facebook fakes share: Graph's error envelope, its parameters (query string,
 * form or JSON body, as Graph takes all three) and its ways of carrying a token.
 */

/** A scripted Graph refusal: Graph's code and subcode, answered with HTTP 400 unless `status` says otherwise. */
export interface GraphFailure {
  status?: number;
  code: number;
  subcode?: number;
  message?: string;
  type?: string;
  transient?: boolean;
}

/** An HTTP status (5xx: Graph's transient code 2; 401: code 190) or a Graph refusal. */
export type FakeGraphFailure = number | GraphFailure;

export function fbtraceId(): string {
  return randomBytes(9).toString('base64url');
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendText(res, status, JSON.stringify(body), { 'Content-Type': 'application/json; charset=UTF-8' });
}

export interface GraphErrorOptions {
  subcode?: number;
  type?: string;
  transient?: boolean;
  userTitle?: string;
  userMessage?: string;
}

export function sendGraphError(res: ServerResponse, status: number, code: number, message: string, options: GraphErrorOptions = {}): void {
  const error: Record<string, unknown> = { message, type: options.type ?? 'OAuthException', code };
  if (options.subcode !== undefined) error.error_subcode = options.subcode;
  if (options.transient !== undefined) error.is_transient = options.transient;
  if (options.userTitle) error.error_user_title = options.userTitle;
  if (options.userMessage) error.error_user_msg = options.userMessage;
  error.fbtrace_id = fbtraceId();
  sendJson(res, status, { error });
}

export function sendScriptedFailure(res: ServerResponse, failure: FakeGraphFailure): void {
  if (typeof failure === 'number') {
    if (failure >= 500) return sendGraphError(res, failure, 2, 'An unexpected error has occurred. Please retry your request later.', { transient: true });
    if (failure === 401) return sendGraphError(res, 401, 190, 'Invalid OAuth access token - Cannot parse access token');
    if (failure === 429) return sendGraphError(res, 429, 4, 'Application request limit reached', { transient: true });
    return sendGraphError(res, failure, 100, `Fake failure: HTTP ${failure}`);
  }
  sendGraphError(res, failure.status ?? 400, failure.code, failure.message ?? `Fake failure (#${failure.code})`, { subcode: failure.subcode, type: failure.type, transient: failure.transient });
}

export type GraphParams = Record<string, unknown>;

/** Query string, then a form or JSON body on top: Graph reads its parameters from all three. */
export async function readParams(req: IncomingMessage, url: URL): Promise<GraphParams> {
  const params: GraphParams = Object.fromEntries(url.searchParams);
  if (req.method === 'GET' || req.method === 'HEAD') {
    for await (const _chunk of req) void _chunk;
    return params;
  }
  const text = await readText(req);
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) {
    try {
      const json = JSON.parse(text) as unknown;
      if (isObject(json)) Object.assign(params, json);
    } catch {
      params.__invalid_json = true;
    }
  } else if (text) {
    Object.assign(params, Object.fromEntries(new URLSearchParams(text)));
  }
  return params;
}

/** `Authorization: Bearer|OAuth <token>`, else the access_token parameter. */
export function tokenOf(req: IncomingMessage, params: GraphParams): string | undefined {
  const header = /^(?:Bearer|OAuth) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (header) return header;
  return typeof params.access_token === 'string' ? params.access_token : undefined;
}

/** A boolean parameter as Graph reads it: true/false in JSON, "true"/"false" in a form or query. */
export function booleanParam(value: unknown, fallback: boolean): boolean | 'invalid' {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return 'invalid';
}

/** A list parameter: a JSON array, or a JSON array / comma list in a string. */
export function listParam(value: unknown): string[] | 'invalid' {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.every((entry): entry is string => typeof entry === 'string') ? value : 'invalid';
  if (typeof value !== 'string') return 'invalid';
  if (value.trim().startsWith('[')) {
    try {
      return listParam(JSON.parse(value) as unknown);
    } catch {
      return 'invalid';
    }
  }
  return value.split(',').map((entry) => entry.trim()).filter(Boolean);
}

/** The requested fields: "a,b,c.summary(true).limit(0)" → ["a", "b", "c"]. */
export function fieldNames(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return value
    .split(',')
    .map((field) => field.trim().split(/[.{(]/)[0] ?? '')
    .filter(Boolean);
}
