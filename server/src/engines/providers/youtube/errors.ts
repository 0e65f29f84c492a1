import { explainQuotaWait } from './quota.ts';

/**
 * What went wrong when talking to YouTube, in terms a caller can act on:
 * - token_invalid: the access token was refused (401); refresh it once and retry
 * - reconnect_required: the grant is dead (invalid_grant: revoked, expired, a used code) or lacks a
 *   permission; only connecting the account again helps ("Reconnect needed")
 * - access_denied: the user refused on Google's consent page
 * - no_channel: the Google account has no YouTube channel to post to
 * - config: Google rejected this app's own setup (client id/secret, redirect URI)
 * - invalid_request: YouTube refused our parameters; the same request will fail again
 * - quota_exceeded: the project's daily quota is spent; see YouTubeQuotaExceededError.retryAt
 * - rate_limited: YouTube asked us to slow down and kept asking
 * - upload_expired: the resumable session is unknown or expired (404); start a new upload
 * - upload_failed: the upload server refused a chunk or kept failing
 * - file: the local video is unusable (empty, unreadable, changed size)
 * - upstream: 5xx or network failure that outlived the retries, or an answer we cannot read
 * - aborted: the caller's AbortSignal fired
 */
export type YouTubeErrorKind =
  | 'token_invalid'
  | 'reconnect_required'
  | 'access_denied'
  | 'no_channel'
  | 'config'
  | 'invalid_request'
  | 'quota_exceeded'
  | 'rate_limited'
  | 'upload_expired'
  | 'upload_failed'
  | 'file'
  | 'upstream'
  | 'aborted';

interface YouTubeErrorOptions {
  /** Google's reason (quotaExceeded, invalid_grant…) or one of ours (upload_session_expired…). */
  code?: string | null;
  httpStatus?: number | null;
  /** Technical context for logs (endpoint, Google's own message); never shown to users, never secret. */
  detail?: string;
  cause?: unknown;
}

/** A YouTube failure whose `message` is plain words for the person who clicked "Post". */
export class YouTubeError extends Error {
  override name = 'YouTubeError';
  readonly kind: YouTubeErrorKind;
  readonly code: string | null;
  readonly httpStatus: number | null;
  readonly detail: string;

  constructor(kind: YouTubeErrorKind, message: string, options: YouTubeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.code = options.code ?? null;
    this.httpStatus = options.httpStatus ?? null;
    this.detail = options.detail ?? message;
  }

  /** Whether the same operation may succeed later without the user changing anything. */
  get retryable(): boolean {
    return RETRYABLE_KINDS.has(this.kind);
  }
}

const RETRYABLE_KINDS = new Set<YouTubeErrorKind>(['quota_exceeded', 'rate_limited', 'upload_failed', 'upstream']);

/** The daily quota is spent: nothing helps before retryAt (the next midnight, Pacific time). */
export class YouTubeQuotaExceededError extends YouTubeError {
  override name = 'YouTubeQuotaExceededError';
  readonly retryAt: Date;

  constructor(retryAt: Date, options: Omit<YouTubeErrorOptions, 'code'> = {}) {
    super('quota_exceeded', explainQuotaWait(retryAt), { ...options, code: 'quotaExceeded' });
    this.retryAt = retryAt;
  }
}

export function isYouTubeError(error: unknown, kind?: YouTubeErrorKind): error is YouTubeError {
  return error instanceof YouTubeError && (kind === undefined || error.kind === kind);
}

const RECONNECT = 'The YouTube connection has expired or was removed: reconnect the account.';

/** Plain sentences for the codes Google sends (OAuth errors, Data API reasons) and the few this client raises. */
const MESSAGES: Readonly<Record<string, string>> = {
  // OAuth
  access_denied: 'The YouTube connection was cancelled: permission was not granted on Google.',
  invalid_grant: RECONNECT,
  invalid_client: 'Google rejected this app’s credentials: check YOUTUBE_CLIENT_ID and YOUTUBE_CLIENT_SECRET.',
  unauthorized_client: 'This Google app is not allowed to connect accounts this way: check its OAuth client in the Google Cloud console.',
  redirect_uri_mismatch: 'Google refused the connection: YOUTUBE_REDIRECT_URI is not registered for the OAuth client.',
  invalid_scope: 'Google refused the requested permissions: enable the YouTube Data API v3 for the Google Cloud project.',
  invalid_request: 'Google refused the connection request. Try again.',
  unsupported_grant_type: 'Google did not accept the way Clipshift asked for a token. This is a bug in Clipshift.',
  // Data API reasons
  authError: RECONNECT,
  insufficientPermissions: 'The YouTube account did not grant Clipshift the permission this needs: reconnect it and allow uploading and viewing your channel.',
  youtubeSignupRequired: 'This Google account has no YouTube channel yet: create one on YouTube, then connect again.',
  no_channel: 'This Google account has no YouTube channel yet: create one on YouTube, then connect again.',
  rateLimitExceeded: 'YouTube is limiting how fast requests are sent. Try again in a few minutes.',
  userRateLimitExceeded: 'YouTube is limiting how fast requests are sent. Try again in a few minutes.',
  uploadLimitExceeded: 'This YouTube channel has reached its upload limit for now. Try again tomorrow.',
  invalidTitle: 'YouTube refused the title: it must be 1 to 100 characters, without < or >.',
  invalidDescription: 'YouTube refused the description: it must be at most 5,000 bytes, without < or >.',
  invalidTags: 'YouTube refused the tags: together they must stay within 500 characters.',
  invalidCategoryId: 'YouTube refused the video category.',
  invalidVideoMetadata: 'YouTube refused the video’s details.',
  badRequest: 'YouTube refused the request as invalid.',
  forbidden: 'YouTube refused the request for this channel.',
  backendError: 'YouTube had an internal error. Try again later.',
  // Raised by this client
  upload_session_expired: 'The YouTube upload session expired. Post the clip again.',
  upload_rejected: 'YouTube’s upload server refused part of the video.',
  upload_server_error: 'YouTube’s upload server kept failing. Try again later.',
  upload_incomplete: 'YouTube’s upload server did not confirm the whole video. Try again.',
  video_empty: 'The video file is empty.',
  video_changed: 'The video file changed while it was being posted. Post the clip again.',
  video_unreadable: 'The video file could not be read.',
  bad_response: 'YouTube sent an answer Clipshift does not understand. Try again later.',
  network_error: 'YouTube could not be reached. Try again later.',
};

/** A plain sentence for any Google code; unknown codes are named so support can look them up. */
export function explainYouTubeError(code: string): string {
  return MESSAGES[code] ?? `YouTube refused the request (${code}).`;
}

const KIND_BY_CODE: Readonly<Record<string, YouTubeErrorKind>> = {
  access_denied: 'access_denied',
  invalid_grant: 'reconnect_required',
  invalid_client: 'config',
  unauthorized_client: 'config',
  redirect_uri_mismatch: 'config',
  invalid_scope: 'config',
  unsupported_grant_type: 'config',
  invalid_request: 'invalid_request',
  authError: 'token_invalid',
  insufficientPermissions: 'reconnect_required',
  youtubeSignupRequired: 'no_channel',
  rateLimitExceeded: 'rate_limited',
  userRateLimitExceeded: 'rate_limited',
  uploadLimitExceeded: 'invalid_request',
  backendError: 'upstream',
};

function kindFromStatus(httpStatus: number | null): YouTubeErrorKind {
  if (httpStatus === 401) return 'token_invalid';
  if (httpStatus === 429) return 'rate_limited';
  if (httpStatus !== null && httpStatus >= 500) return 'upstream';
  return 'invalid_request';
}

/** The typed error for a code Google sent, with its plain message. */
export function errorFromCode(code: string, context: { httpStatus?: number | null; detail?: string } = {}): YouTubeError {
  const httpStatus = context.httpStatus ?? null;
  return new YouTubeError(KIND_BY_CODE[code] ?? kindFromStatus(httpStatus), explainYouTubeError(code), {
    code,
    httpStatus,
    detail: context.detail ?? `YouTube answered ${code}${httpStatus === null ? '' : ` (HTTP ${httpStatus})`}`,
  });
}

export function abortedError(what: string, cause?: unknown): YouTubeError {
  return new YouTubeError('aborted', `${what} was cancelled.`, { code: null, cause });
}
