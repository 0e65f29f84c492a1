import { redactUrl } from '../../../platform/logger.ts';
import { isRecord } from '../http/runtime.ts';

/*
 * What went wrong when talking to Meta (Instagram API with Instagram Login, Facebook Graph API and
 * its upload host), in terms a caller can act on. Both speak the Graph error envelope
 * `{"error":{"message","type","code","error_subcode","fbtrace_id"}}`; api.instagram.com's token
 * endpoint answers `{"error_type","code","error_message"}` and rupload `{"debug_info":{…}}`.
 * - reconnect_required: the token is dead (code 190: expired, revoked, password changed), lacks a
 *   permission (10, 200–299), or a sign-in code was refused; only connecting again helps
 * - access_denied: the user refused on Meta's consent page
 * - config: Meta rejected this app's own setup (app id/secret, redirect URI)
 * - invalid_request: Meta refused our parameters; the same request fails again
 * - media_rejected: Meta cannot use the video (format, download failed); post another one
 * - not_ready: the container or video is still processing; ask again later
 * - expired: the container or upload expired before it was published; start over
 * - already_published: the container was published before (a lost answer); nothing to do again
 * - rate_limited: a rate limit or the publishing limit; wait, then try again
 * - blocked: Meta restricted the account or the action (spam checks, checkpoints)
 * - upload_failed: the upload host refused the bytes or kept failing
 * - file: the local video is unusable (empty, unreadable, changed size)
 * - upstream: 5xx, a transient Graph error or a network failure that outlived the retries
 * - aborted: the caller's AbortSignal fired
 */

export type MetaPlatform = 'instagram' | 'facebook';

export type MetaErrorKind =
  | 'reconnect_required'
  | 'access_denied'
  | 'config'
  | 'invalid_request'
  | 'media_rejected'
  | 'not_ready'
  | 'expired'
  | 'already_published'
  | 'rate_limited'
  | 'blocked'
  | 'upload_failed'
  | 'file'
  | 'upstream'
  | 'aborted';

interface MetaErrorOptions {
  /** Graph's "code/subcode" ("190/463") or one of ours ("upload_incomplete"). */
  code?: string | null;
  graphCode?: number | null;
  graphSubcode?: number | null;
  httpStatus?: number | null;
  /** Technical context for logs (endpoint, Meta's own words, fbtrace_id); never shown to users, never a secret. */
  detail?: string;
  cause?: unknown;
}

/** A Meta failure whose `message` is plain words for the person who clicked "Post". */
export class MetaError extends Error {
  override name = 'MetaError';
  readonly platform: MetaPlatform;
  readonly kind: MetaErrorKind;
  readonly code: string | null;
  readonly graphCode: number | null;
  readonly graphSubcode: number | null;
  readonly httpStatus: number | null;
  readonly detail: string;

  constructor(platform: MetaPlatform, kind: MetaErrorKind, message: string, options: MetaErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.platform = platform;
    this.kind = kind;
    this.code = options.code ?? null;
    this.graphCode = options.graphCode ?? null;
    this.graphSubcode = options.graphSubcode ?? null;
    this.httpStatus = options.httpStatus ?? null;
    this.detail = options.detail ?? message;
  }

  /** Whether the same operation may succeed later without the user changing anything. */
  get retryable(): boolean {
    return RETRYABLE_KINDS.has(this.kind);
  }
}

const RETRYABLE_KINDS = new Set<MetaErrorKind>(['not_ready', 'rate_limited', 'upload_failed', 'upstream']);

export function isMetaError(error: unknown, kind?: MetaErrorKind): error is MetaError {
  return error instanceof MetaError && (kind === undefined || error.kind === kind);
}

// ---------------------------------------------------------------------------------------------
// Plain words

const LABEL: Record<MetaPlatform, string> = { instagram: 'Instagram', facebook: 'Facebook' };
const VARIABLES: Record<MetaPlatform, { id: string; secret: string; redirect: string }> = {
  instagram: { id: 'INSTAGRAM_CLIENT_ID', secret: 'INSTAGRAM_CLIENT_SECRET', redirect: 'INSTAGRAM_REDIRECT_URI' },
  facebook: { id: 'FACEBOOK_APP_ID', secret: 'FACEBOOK_APP_SECRET', redirect: 'FACEBOOK_REDIRECT_URI' },
};

/** A reason: a Graph subcode as "sub:NNN", or one of the names below. */
function messages(platform: MetaPlatform): Readonly<Record<string, string>> {
  const label = LABEL[platform];
  const vars = VARIABLES[platform];
  return {
    reconnect: `The ${label} connection has expired or was removed: reconnect the account.`,
    permission: `The ${label} account did not grant Clipshift the permission this needs: reconnect it and allow everything Clipshift asks for.`,
    code_refused: `${label} refused the sign-in (its link expired or was already used): connect the account again.`,
    access_denied: `The ${label} connection was cancelled: permission was not granted on ${label}.`,
    not_configured: `${label} is not configured: set ${vars.id} and ${vars.secret}.`,
    bad_credentials: `${label} rejected this app's credentials: check ${vars.id} and ${vars.secret}.`,
    bad_redirect: `${label} refused the connection: ${vars.redirect} is not registered for the app.`,
    rate_limited: `${label} is limiting how fast requests are sent. Try again later.`,
    blocked: `${label} restricted this account or blocked the action: open ${label} to see why.`,
    invalid_request: `${label} refused the request as invalid.`,
    media_rejected: `${label} refused the video.`,
    not_ready: `${label} is still processing the video. Try again in a few minutes.`,
    expired: `The ${label} upload expired before it was published. Post the clip again.`,
    already_published: `${label} already published this video.`,
    upstream: `${label} had an internal error. Try again later.`,
    network_error: `${label} could not be reached. Try again later.`,
    bad_response: `${label} sent an answer Clipshift does not understand. Try again later.`,
    processing_failed: `${label} could not process the video.`,
    upload_rejected: `${label}'s upload server refused the video.`,
    upload_server_error: `${label}'s upload server kept failing. Try again later.`,
    upload_untrusted: `${label} named an upload address outside FACEBOOK_RUPLOAD_URL; nothing was sent to it.`,
    video_empty: 'The video file is empty.',
    video_changed: 'The video file changed while it was being posted. Post the clip again.',
    video_unreadable: 'The video file could not be read.',
    'sub:2207001': 'Instagram had a server error. Try again.',
    'sub:2207003': 'Instagram took too long to download the video. Try again.',
    'sub:2207006': 'Instagram no longer has this upload. Post the clip again.',
    'sub:2207008': 'Instagram had a temporary error publishing the video. Try again in a few minutes.',
    'sub:2207020': `The ${label} upload expired before it was published. Post the clip again.`,
    'sub:2207026': 'Instagram could not use the video: its format is not supported (Reels need MP4 with H.264 video and AAC sound).',
    'sub:2207027': 'Instagram is still processing the video. Try again in a few minutes.',
    'sub:2207032': 'Instagram could not create the post. Try again.',
    'sub:2207042': 'This Instagram account has published as many posts through apps as Instagram allows in 24 hours; the post waits until one frees up.',
    'sub:2207050': 'This Instagram account is inactive or restricted: sign in to the Instagram app and complete what it asks.',
    'sub:2207051': 'Instagram blocked the post as suspected spam: open Instagram to see why.',
    'sub:2207052': 'Instagram could not download the video from Clipshift: PUBLIC_URL must be reachable from the internet.',
    'sub:2207053': 'Instagram had an unknown error receiving the video. Post the clip again.',
    'sub:2207057': 'Instagram refused the cover frame: it must lie within the video.',
  };
}

export function explainMetaError(platform: MetaPlatform, reason: string): string {
  return messages(platform)[reason] ?? `${LABEL[platform]} refused the request (${reason.replace(/^sub:/, '')}).`;
}

// ---------------------------------------------------------------------------------------------
// Reading Meta's error shapes

export interface GraphErrorBody {
  code: number | null;
  subcode: number | null;
  type: string | null;
  message: string;
  fbtraceId: string | null;
  /** Graph's own hint that the same call may work later. */
  transient: boolean;
}

const numberOr = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : null);
const stringOr = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/** The error a body carries in any of Meta's three shapes, or null when it carries none. */
export function extractGraphError(body: unknown): GraphErrorBody | null {
  if (!isRecord(body)) return null;
  const { error } = body;
  if (isRecord(error)) {
    return {
      code: numberOr(error.code),
      subcode: numberOr(error.error_subcode),
      type: stringOr(error.type),
      message: stringOr(error.message) ?? '',
      fbtraceId: stringOr(error.fbtrace_id),
      transient: error.is_transient === true,
    };
  }
  if (typeof body.error_type === 'string' || typeof body.error_message === 'string') {
    return { code: numberOr(body.code), subcode: null, type: stringOr(body.error_type), message: stringOr(body.error_message) ?? '', fbtraceId: null, transient: false };
  }
  const debug = body.debug_info;
  if (isRecord(debug)) {
    return { code: null, subcode: null, type: stringOr(debug.type), message: stringOr(debug.message) ?? '', fbtraceId: null, transient: debug.retriable === true };
  }
  return null;
}

/** Subcodes that decide on their own, whatever the code beside them (Instagram's error-codes page). */
const KIND_BY_SUBCODE: Readonly<Record<number, MetaErrorKind>> = {
  2207001: 'upstream',
  2207003: 'upstream',
  2207004: 'media_rejected',
  2207005: 'media_rejected',
  2207006: 'expired',
  2207008: 'upstream',
  2207009: 'media_rejected',
  2207020: 'expired',
  2207026: 'media_rejected',
  2207027: 'not_ready',
  2207032: 'upstream',
  2207042: 'rate_limited',
  2207050: 'blocked',
  2207051: 'blocked',
  2207052: 'media_rejected',
  2207053: 'expired',
  2207057: 'invalid_request',
};

/** Facebook Login's subcodes: the code expired (36007) or was used (36009); the redirect URI differs (36008). */
const LOGIN_SUBCODES: Readonly<Record<number, Classified>> = {
  36007: { kind: 'reconnect_required', reason: 'code_refused' },
  36008: { kind: 'config', reason: 'bad_redirect' },
  36009: { kind: 'reconnect_required', reason: 'code_refused' },
};

/** Application, user, Page and Instagram rate limits (80001…80014: business use case limits). */
const RATE_LIMIT_CODES = new Set([4, 17, 32, 613, 80001, 80002, 80003, 80004, 80005, 80006, 80008, 80009, 80014]);

interface Classified {
  kind: MetaErrorKind;
  reason: string;
}

function classifyCode(code: number | null, httpStatus: number): Classified | null {
  if (code === 190 || code === 102) return { kind: 'reconnect_required', reason: 'reconnect' };
  if (code === 10 || (code !== null && code >= 200 && code <= 299)) return { kind: 'reconnect_required', reason: 'permission' };
  if (code !== null && RATE_LIMIT_CODES.has(code)) return { kind: 'rate_limited', reason: 'rate_limited' };
  if (code === 368 || code === 25) return { kind: 'blocked', reason: 'blocked' };
  if (code === 101) return { kind: 'config', reason: 'bad_credentials' };
  if (code === 191) return { kind: 'config', reason: 'bad_redirect' };
  if (code === 9004 || code === 352 || (code !== null && code >= 36000 && code <= 36004)) return { kind: 'media_rejected', reason: 'media_rejected' };
  if (code === 9007) return { kind: 'not_ready', reason: 'not_ready' };
  if (code === 1 || code === 2 || httpStatus >= 500) return { kind: 'upstream', reason: 'upstream' };
  return null;
}

/**
 * A token endpoint refusal: wrong credentials or redirect URI are this app's setup; anything else
 * (a used or expired code, a revoked grant) means connecting again. api.instagram.com says so only
 * in words, and Graph's "Error validating client secret" comes with the generic code 1.
 */
function classifyOAuth(error: GraphErrorBody): Classified | null {
  if (error.code === 190) return { kind: 'reconnect_required', reason: 'reconnect' };
  if (/redirect_uri/i.test(error.message)) return { kind: 'config', reason: 'bad_redirect' };
  if (/client[_ ]?secret|app[_ ]?secret|client_id|platform app|invalid app id/i.test(error.message)) return { kind: 'config', reason: 'bad_credentials' };
  if (error.code === 1 || error.code === 2) return null;
  return { kind: 'reconnect_required', reason: 'code_refused' };
}

export function classifyGraphError(error: GraphErrorBody | null, httpStatus: number, oauth = false): Classified {
  const subcode = error?.subcode ?? null;
  const bySubcode = subcode === null ? undefined : KIND_BY_SUBCODE[subcode];
  if (bySubcode) return { kind: bySubcode, reason: `sub:${subcode}` };
  const login = subcode === null ? undefined : LOGIN_SUBCODES[subcode];
  if (login) return login;
  if (error && oauth && httpStatus < 500) {
    const refused = classifyOAuth(error);
    if (refused) return refused;
  }
  const byCode = classifyCode(error?.code ?? null, httpStatus);
  if (byCode) return byCode;
  if (error?.transient) return { kind: 'upstream', reason: 'upstream' };
  if (httpStatus === 401) return { kind: 'reconnect_required', reason: 'reconnect' };
  if (httpStatus === 429) return { kind: 'rate_limited', reason: 'rate_limited' };
  return { kind: 'invalid_request', reason: 'invalid_request' };
}

/** Meta's access tokens: Facebook's start EAA, Instagram's IGAA/IGQV/IGQW. */
const TOKEN_LIKE = /\b(?:EAA|IGAA|IGQV|IGQW)[A-Za-z0-9_-]{8,}/g;

/** Text for logs without any of the given secrets, Meta-looking tokens or secret URL parameters. */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  let clean = text;
  for (const secret of secrets) if (secret && secret.length >= 4) clean = clean.replaceAll(secret, '[redacted]');
  return redactUrl(clean.replace(TOKEN_LIKE, '[redacted]'));
}

export interface AnswerContext {
  platform: MetaPlatform;
  what: string;
  httpStatus: number;
  body: unknown;
  /** A token endpoint: refusals are read as sign-in problems, not API ones. */
  oauth?: boolean;
  /** Tokens, secrets and codes the request carried; never repeated in the detail. */
  secrets?: readonly (string | undefined)[];
}

/** The typed error for a refused request, in plain words, with Meta's own in the (scrubbed) detail. */
export function errorFromAnswer(context: AnswerContext): MetaError {
  const error = extractGraphError(context.body);
  const { kind, reason } = classifyGraphError(error, context.httpStatus, context.oauth);
  const code = error?.code === null || error?.code === undefined ? null : error.subcode === null ? String(error.code) : `${error.code}/${error.subcode}`;
  const said = error?.message ? `: ${error.message}` : '';
  const trace = error?.fbtraceId ? ` (fbtrace_id ${error.fbtraceId})` : '';
  const detail = scrubSecrets(`${context.what} → HTTP ${context.httpStatus} ${code ?? 'without a code'}${said}${trace}`, context.secrets);
  return new MetaError(context.platform, kind, explainMetaError(context.platform, reason), {
    code,
    graphCode: error?.code ?? null,
    graphSubcode: error?.subcode ?? null,
    httpStatus: context.httpStatus,
    detail,
  });
}

/** The error a consent-page redirect carries (`?error=access_denied&error_reason=user_denied`), or null when it carries a code. */
export function callbackErrorOf(platform: MetaPlatform, query: URLSearchParams): MetaError | null {
  const error = query.get('error');
  if (!error) return null;
  const reason = query.get('error_reason') ?? '';
  const denied = error === 'access_denied' || reason === 'user_denied';
  return new MetaError(platform, denied ? 'access_denied' : 'config', explainMetaError(platform, denied ? 'access_denied' : 'bad_credentials'), {
    code: error,
    detail: scrubSecrets(`${LABEL[platform]} authorize callback: ${error}${reason ? ` (${reason})` : ''} ${query.get('error_description') ?? ''}`.trim()),
  });
}

/** One of this client's own errors (no Meta answer behind it), with its plain message. */
export function ownError(platform: MetaPlatform, kind: MetaErrorKind, reason: string, detail: string, extra: Omit<MetaErrorOptions, 'code' | 'detail'> = {}): MetaError {
  return new MetaError(platform, kind, explainMetaError(platform, reason), { ...extra, code: reason, detail });
}

export function abortedError(platform: MetaPlatform, what: string, cause?: unknown): MetaError {
  return new MetaError(platform, 'aborted', `${what} was cancelled.`, { code: null, cause });
}

/** The typed error for an Instagram subcode met outside an error envelope (a container's ERROR status). */
export function errorFromSubcode(platform: MetaPlatform, subcode: number | null, fallback: { kind: MetaErrorKind; reason: string }, detail: string): MetaError {
  const known = subcode === null ? undefined : KIND_BY_SUBCODE[subcode];
  const { kind, reason } = known && subcode !== null ? { kind: known, reason: `sub:${subcode}` } : fallback;
  return new MetaError(platform, kind, explainMetaError(platform, reason), { code: subcode === null ? reason : String(subcode), graphSubcode: subcode, detail: scrubSecrets(detail) });
}
