import type { z } from 'zod';
import { exponentialBackoff, sendWithRetries, type RetryPolicy } from '../http/retry.ts';
import { discardBody, joinUrl, pauseOrAbort, type ProviderRuntime, REQUEST_TIMEOUT_MS, TRANSIENT_ATTEMPTS } from '../http/runtime.ts';
import { abortedError, errorFromAnswer, explainMetaError, extractGraphError, MetaError, type MetaPlatform, scrubSecrets } from './errors.ts';

/*
 * One Graph API call, as the Instagram and Facebook clients make them: the token in an
 * Authorization header (never in a URL a proxy or a log could keep) unless Meta documents it as a
 * query parameter, 5xx and network failures retried, Meta's error envelope read into a MetaError.
 * Rate limits are not waited out here: Meta's last for up to an hour and say nothing of when they
 * end, so the caller (a job) decides when to come back.
 */

export type MetaRuntime = ProviderRuntime;

const policies = new Map<MetaPlatform, RetryPolicy>();

export function metaRetries(platform: MetaPlatform): RetryPolicy {
  const existing = policies.get(platform);
  if (existing) return existing;
  const policy: RetryPolicy = {
    retryMessage: `${platform === 'instagram' ? 'Instagram' : 'Facebook'} request failed; retrying`,
    attempts: TRANSIENT_ATTEMPTS,
    timeoutMs: REQUEST_TIMEOUT_MS,
    backoffMs: exponentialBackoff(1000),
    tooManyRequests: 'return',
    returnLastAnswer: true,
    describeAnswer: async (response) => {
      await discardBody(response);
      return `HTTP ${response.status}`;
    },
    aborted: (what, cause) => abortedError(platform, what, cause),
    exhausted: (what, attempts, failure) =>
      new MetaError(platform, 'upstream', explainMetaError(platform, 'network_error'), {
        code: 'network_error',
        detail: `${what} failed after ${attempts} attempt(s) (${failure.reason})`,
        cause: failure.cause,
      }),
  };
  policies.set(platform, policy);
  return policy;
}

export function pause(runtime: MetaRuntime, platform: MetaPlatform, ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return pauseOrAbort(runtime, ms, signal, (cause) => abortedError(platform, what, cause));
}

/**
 * Graph ids are decimal strings, but a few answers (api.instagram.com's user_id) carry them as bare
 * numbers above 2^53, which JSON.parse would round to another account's id: quote them first.
 */
export function parseMetaJson(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text.replace(/("(?:id|user_id|[a-z_]+_id)"\s*:\s*)(-?\d{16,})(?=\s*[,}\]])/g, '$1"$2"')) as unknown;
  } catch {
    return undefined;
  }
}

/** JSON body of a response, or undefined when it is empty or not JSON (a proxy's HTML page). */
export async function readMetaJson(response: Response): Promise<unknown> {
  return parseMetaJson(await response.text().catch(() => ''));
}

export function parseWith<S extends z.ZodType>(platform: MetaPlatform, what: string, status: number, body: unknown, schema: S): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? ` at ${issue.path.join('.') || '(root)'}: ${issue.message}` : '';
    throw new MetaError(platform, 'upstream', explainMetaError(platform, 'bad_response'), {
      code: 'bad_response',
      httpStatus: status,
      detail: `${what} returned a response we do not understand${where}`,
    });
  }
  return parsed.data;
}

export interface GraphRequest {
  platform: MetaPlatform;
  /** Names the call in logs and errors ("Instagram POST /{ig-user-id}/media"); never a secret. */
  what: string;
  method: 'GET' | 'POST';
  /** The API base (INSTAGRAM_GRAPH_URL…) and the path under it, or a full URL with an empty path. */
  base: string;
  path: string;
  query?: Record<string, string | undefined>;
  /** Sent as `Authorization: Bearer`. */
  token?: string;
  /** A JSON body (POST). */
  json?: unknown;
  /** A form body (POST). */
  form?: Record<string, string>;
  /** Secrets in the query or body (client secrets, codes, tokens Meta wants as parameters), kept out of errors. */
  secrets?: readonly (string | undefined)[];
  /** A token endpoint: its refusals are read as sign-in problems. */
  oauth?: boolean;
  /**
   * Whether a failure without an answer may be sent again (default true). Not for what must not
   * happen twice unseen (publishing, a single-use code): the caller finds out what happened instead.
   */
  retryNetworkErrors?: boolean;
  /**
   * Send it once, whatever answers (default: retry 5xx and network failures). For what must not go
   * out twice unseen (publishing): a 5xx may come after the work was done, so the caller asks
   * instead of sending again.
   */
  once?: boolean;
  signal?: AbortSignal;
}

function requestInit(request: GraphRequest): RequestInit {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (request.token) headers.Authorization = `Bearer ${request.token}`;
  if (request.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    return { method: request.method, headers, body: JSON.stringify(request.json) };
  }
  if (request.form !== undefined) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    return { method: request.method, headers, body: new URLSearchParams(request.form) };
  }
  return { method: request.method, headers };
}

/**
 * A failure without an answer names what went wrong in the runtime's words, which may quote the
 * URL: the secrets this request carried in its query come out of the detail.
 */
function scrubbed(error: unknown, secrets: readonly (string | undefined)[]): unknown {
  if (!(error instanceof MetaError)) return error;
  return new MetaError(error.platform, error.kind, error.message, {
    code: error.code,
    graphCode: error.graphCode,
    graphSubcode: error.graphSubcode,
    httpStatus: error.httpStatus,
    detail: scrubSecrets(error.detail, secrets),
    cause: error.cause,
  });
}

/** Sends one Graph call and returns its answer read through `schema`; a refusal throws a MetaError. */
export async function graphRequest<S extends z.ZodType>(runtime: MetaRuntime, request: GraphRequest, schema: S): Promise<z.output<S>> {
  const url = new URL(request.path ? joinUrl(request.base, request.path) : request.base);
  for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(key, value);
  const init = requestInit(request);
  const secrets = [request.token, ...(request.secrets ?? [])];
  const response = await sendWithRetries(
    runtime,
    { what: request.what, signal: request.signal, retryNetworkErrors: request.retryNetworkErrors, send: (signal) => fetch(url, { ...init, signal }) },
    request.once ? { ...metaRetries(request.platform), attempts: 1 } : metaRetries(request.platform),
  ).catch((error: unknown) => {
    throw scrubbed(error, secrets);
  });
  const body = await readMetaJson(response);
  if (!response.ok || extractGraphError(body)) {
    const error = errorFromAnswer({ platform: request.platform, what: request.what, httpStatus: response.status, body, oauth: request.oauth, secrets });
    runtime.logger.warn({ what: request.what, status: response.status, errorCode: error.code, kind: error.kind }, `${request.platform === 'instagram' ? 'Instagram' : 'Facebook'} refused the request`);
    throw error;
  }
  return parseWith(request.platform, request.what, response.status, body, schema);
}
