/**
 * What went wrong when talking to TikTok (external-apis.md part B), in terms a caller can act on:
 * - token_invalid: the access token was refused (401 access_token_invalid); refresh it once and retry
 * - reconnect_required: the refresh token or code is dead (invalid_grant), the user removed the app,
 *   or a permission is missing; only connecting the account again helps
 * - access_denied: the user refused on TikTok's consent page
 * - config: TikTok rejected this app's own setup (client key/secret, redirect URI, scopes)
 * - invalid_request: TikTok refused our parameters; the same request will fail again
 * - privacy: the chosen privacy level is not allowed (unaudited app, account options)
 * - posting_limit: a posting cap or ban on the account or the app (daily posts, inbox drafts, active users)
 * - duration_too_long: the clip is longer than the account may post (from creator_info)
 * - rate_limited: still 429 after waiting several times
 * - upload_expired: the upload_url's hour is over (403 on a chunk PUT)
 * - upload_range: the upload server expected another byte range (416); see resumeAtChunk
 * - upload_failed: a chunk was refused or kept failing, or the upload task is gone
 * - publish_failed: TikTok's processing ended in FAILED; code is the fail_reason
 * - timeout: TikTok was still processing when the caller's time ran out
 * - file: the local video is unusable (empty, over 4 GB, changed since it was planned, unreadable)
 * - upstream: 5xx or network failure that outlived the retries, or an answer we cannot read
 * - aborted: the caller's AbortSignal fired
 */
export type TikTokErrorKind =
  | 'token_invalid'
  | 'reconnect_required'
  | 'access_denied'
  | 'config'
  | 'invalid_request'
  | 'privacy'
  | 'posting_limit'
  | 'duration_too_long'
  | 'rate_limited'
  | 'upload_expired'
  | 'upload_range'
  | 'upload_failed'
  | 'publish_failed'
  | 'timeout'
  | 'file'
  | 'upstream'
  | 'aborted';

interface TikTokErrorOptions {
  /** TikTok's error code or fail_reason (or one of ours, e.g. upload_url_expired), when there is one. */
  code?: string | null;
  httpStatus?: number | null;
  logId?: string | null;
  /** Technical context for logs (endpoint, TikTok's own message); never shown to users, never secret. */
  detail?: string;
  /** upload_range only: the chunk index the upload server is waiting for, when its Content-Range said so. */
  resumeAtChunk?: number;
  cause?: unknown;
}

/** A TikTok failure whose `message` is plain words for the person who clicked "Post". */
export class TikTokError extends Error {
  override name = 'TikTokError';
  readonly kind: TikTokErrorKind;
  readonly code: string | null;
  readonly httpStatus: number | null;
  /** TikTok's log_id: what TikTok support asks for. */
  readonly logId: string | null;
  readonly detail: string;
  readonly resumeAtChunk: number | undefined;

  constructor(kind: TikTokErrorKind, message: string, options: TikTokErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.code = options.code ?? null;
    this.httpStatus = options.httpStatus ?? null;
    this.logId = options.logId ?? null;
    this.detail = options.detail ?? message;
    this.resumeAtChunk = options.resumeAtChunk;
  }

  /** Whether the same operation may succeed later without the user changing anything. */
  get retryable(): boolean {
    if (this.kind === 'publish_failed') return this.code === 'internal';
    return RETRYABLE_KINDS.has(this.kind);
  }
}

const RETRYABLE_KINDS = new Set<TikTokErrorKind>(['rate_limited', 'upstream', 'timeout', 'upload_expired', 'upload_range', 'upload_failed']);

export function isTikTokError(error: unknown, kind?: TikTokErrorKind): error is TikTokError {
  return error instanceof TikTokError && (kind === undefined || error.kind === kind);
}

const RECONNECT = 'The TikTok connection has expired: reconnect the account.';
const MISSING_PERMISSION =
  "The TikTok account did not grant Clipshift the permission this needs: reconnect it and allow everything TikTok asks for (profile and posting videos).";

/**
 * Plain sentences for every code TikTok documents (OAuth errors, v2 error codes, status fail_reason)
 * and the few this client raises itself. One table so an init error and a status fail_reason with the
 * same code (spam_risk_too_many_posts) read the same.
 */
const MESSAGES: Readonly<Record<string, string>> = {
  // OAuth (B1, B2)
  access_denied: 'The TikTok connection was cancelled: permission was not granted on TikTok.',
  invalid_grant: RECONNECT,
  invalid_client: 'TikTok rejected this app’s credentials: check TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET.',
  invalid_request:
    'TikTok refused the connection request. Try again; if it keeps failing, check that TIKTOK_REDIRECT_URI is registered for the TikTok app.',
  invalid_scope:
    'TikTok refused the requested permissions: enable Login Kit, the Display API and the Content Posting API (user.info.basic, user.info.profile, video.publish, video.upload, video.list) for the TikTok app.',
  unauthorized_client: 'This TikTok app is not allowed to connect accounts this way: check its settings on TikTok for Developers.',
  unsupported_grant_type: 'TikTok did not accept the way Clipshift asked for a token. This is a bug in Clipshift.',
  unsupported_response_type: 'TikTok did not accept the way Clipshift asked for a sign-in. This is a bug in Clipshift.',
  server_error: 'TikTok’s sign-in service had an error. Try again in a few minutes.',
  temporarily_unavailable: 'TikTok’s sign-in service is temporarily unavailable. Try again in a few minutes.',
  // v2 generic codes (B4)
  access_token_invalid: RECONNECT,
  scope_not_authorized: MISSING_PERMISSION,
  scope_permission_missed: MISSING_PERMISSION,
  invalid_params: 'TikTok refused the request as invalid.',
  invalid_param: 'TikTok refused the post settings or the video’s size information as invalid.',
  invalid_file_upload: 'TikTok refused the uploaded file.',
  rate_limit_exceeded: 'TikTok is rate limiting requests: waited and retried, but it kept refusing. Try again in a few minutes.',
  internal_error: 'TikTok had an internal error. Try again later.',
  // Content Posting (B5)
  spam_risk_too_many_posts: 'This TikTok account has reached its daily posting limit. Try again tomorrow.',
  spam_risk_user_banned_from_posting: 'TikTok has blocked this account from posting videos. Check the account in the TikTok app.',
  reached_active_user_cap:
    'This TikTok app has reached the number of accounts that may post through it today (5 per 24 hours until TikTok audits the app). Try again tomorrow.',
  unaudited_client_can_only_post_to_private_accounts:
    "TikTok only lets unaudited apps post privately (SELF_ONLY) to private accounts: make the TikTok account private or choose 'Only me'.",
  url_ownership_unverified: 'TikTok refused to fetch the video from a web address whose domain is not verified for this app.',
  privacy_level_option_mismatch:
    'The chosen privacy setting is not available for this TikTok account: pick one of the options TikTok offers for it.',
  spam_risk_too_many_pending_share:
    'This account already has 5 drafts waiting in the TikTok inbox (the most TikTok allows in 24 hours). Post or delete them in the TikTok app, or try again tomorrow.',
  invalid_publish_id: 'TikTok does not know this upload any more. Post the clip again.',
  token_not_authorized_for_specified_publish_id: 'This upload was started with a different TikTok connection. Post the clip again.',
  publish_not_cancellable: 'TikTok has already finished with this post, so it can no longer be cancelled.',
  // Status fail_reason (B5 status fetch)
  file_format_check_failed: 'TikTok could not read the video’s format. It needs an MP4 (H.264), WebM or MOV file.',
  duration_check_failed: 'TikTok refused the video’s length: it is too short or longer than this account may post.',
  frame_rate_check_failed: 'TikTok refused the video’s frame rate: it must be between 23 and 60 frames per second.',
  picture_size_check_failed: 'TikTok refused the video’s dimensions: width and height must each be between 360 and 4096 pixels.',
  internal: 'TikTok had an internal problem processing the video. Try posting it again.',
  video_pull_failed: 'TikTok could not download the video from its web address.',
  photo_pull_failed: 'TikTok could not download the photo from its web address.',
  publish_cancelled: 'The post was cancelled before TikTok published it.',
  auth_removed: 'The TikTok account removed Clipshift’s access before the post finished: reconnect the account.',
  spam_risk_text: 'TikTok flagged the description as spam. Change the description and try again.',
  spam_risk: 'TikTok flagged this post as spam and did not publish it.',
  // Raised by this client
  upload_url_expired: 'The TikTok upload link expired (it lasts one hour). Post the clip again.',
  upload_range_mismatch: 'TikTok’s upload server expected a different part of the video. Post the clip again.',
  upload_not_found: 'TikTok’s upload server no longer knows this upload. Post the clip again.',
  upload_rejected: 'TikTok’s upload server refused part of the video.',
  upload_server_error: 'TikTok’s upload server kept failing. Try again later.',
  upload_incomplete: 'TikTok’s upload server did not confirm the whole video. Post the clip again.',
  title_too_long: 'The description is longer than the 2,200 characters TikTok allows.',
  video_empty: 'The video file is empty.',
  video_too_large: 'The video is larger than the 4 GB TikTok accepts.',
  video_changed: 'The video file changed while it was being posted. Post the clip again.',
  video_unreadable: 'The video file could not be read.',
  publish_timeout: 'TikTok is still processing the video. Check the TikTok app in a few minutes.',
  bad_response: 'TikTok sent an answer Clipshift does not understand. Try again later.',
  network_error: 'TikTok could not be reached. Try again later.',
};

/** A plain sentence for any TikTok error code or fail_reason; unknown codes are named so support can look them up. */
export function explainTikTokError(code: string): string {
  return MESSAGES[code] ?? `TikTok refused the request (${code}).`;
}

/** Which kind a TikTok code belongs to; codes not listed are read from the HTTP status by the caller. */
const KIND_BY_CODE: Readonly<Record<string, TikTokErrorKind>> = {
  access_denied: 'access_denied',
  invalid_grant: 'reconnect_required',
  invalid_client: 'config',
  invalid_scope: 'config',
  unauthorized_client: 'config',
  unsupported_grant_type: 'config',
  unsupported_response_type: 'config',
  invalid_request: 'invalid_request',
  server_error: 'upstream',
  temporarily_unavailable: 'upstream',
  access_token_invalid: 'token_invalid',
  scope_not_authorized: 'reconnect_required',
  scope_permission_missed: 'reconnect_required',
  auth_removed: 'reconnect_required',
  invalid_params: 'invalid_request',
  invalid_param: 'invalid_request',
  invalid_file_upload: 'invalid_request',
  url_ownership_unverified: 'invalid_request',
  invalid_publish_id: 'invalid_request',
  token_not_authorized_for_specified_publish_id: 'invalid_request',
  publish_not_cancellable: 'invalid_request',
  rate_limit_exceeded: 'rate_limited',
  internal_error: 'upstream',
  spam_risk_too_many_posts: 'posting_limit',
  spam_risk_user_banned_from_posting: 'posting_limit',
  reached_active_user_cap: 'posting_limit',
  spam_risk_too_many_pending_share: 'posting_limit',
  unaudited_client_can_only_post_to_private_accounts: 'privacy',
  privacy_level_option_mismatch: 'privacy',
};

function kindFromStatus(httpStatus: number | null): TikTokErrorKind {
  if (httpStatus === 401) return 'token_invalid';
  if (httpStatus === 429) return 'rate_limited';
  if (httpStatus !== null && httpStatus >= 500) return 'upstream';
  return 'invalid_request';
}

interface TikTokCodeContext {
  httpStatus?: number | null;
  logId?: string | null;
  /** What we were doing and TikTok's own message, for logs. */
  detail?: string;
}

/** The typed error for a code TikTok sent (OAuth `error`, v2 `error.code`), with its plain message. */
export function errorFromCode(code: string, context: TikTokCodeContext = {}): TikTokError {
  const httpStatus = context.httpStatus ?? null;
  return new TikTokError(KIND_BY_CODE[code] ?? kindFromStatus(httpStatus), explainTikTokError(code), {
    code,
    httpStatus,
    logId: context.logId ?? null,
    detail: context.detail ?? `TikTok answered ${code}${httpStatus === null ? '' : ` (HTTP ${httpStatus})`}`,
  });
}

/** The error for a post whose processing ended in FAILED; the fail_reason decides the words. */
export function publishFailedError(failReason: string | null, publishId: string): TikTokError {
  const code = failReason || 'internal';
  const kind: TikTokErrorKind = code === 'auth_removed' ? 'reconnect_required' : 'publish_failed';
  return new TikTokError(kind, explainTikTokError(code), { code, detail: `TikTok reported FAILED (${code}) for ${publishId}` });
}

export function abortedError(what: string, cause?: unknown): TikTokError {
  return new TikTokError('aborted', `${what} was cancelled.`, { code: null, cause });
}

/** Seconds for people: whole seconds as such, otherwise one decimal ("61.4"). */
function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1);
}

export function explainDurationTooLong(durationSec: number, maxSec: number): string {
  return `This clip is ${formatSeconds(durationSec)} s long but this TikTok account can post at most ${formatSeconds(maxSec)} s.`;
}

/**
 * Throws when a clip is longer than creator_info's max_video_post_duration_sec. TikTok would accept
 * the upload and only fail it later (duration_check_failed) after the whole file was sent, so the
 * caller checks before init.
 */
export function assertDurationAllowed(durationSec: number, creator: { maxVideoPostDurationSec: number }): void {
  const max = creator.maxVideoPostDurationSec;
  if (durationSec > max) {
    throw new TikTokError('duration_too_long', explainDurationTooLong(durationSec, max), {
      code: 'duration_too_long',
      detail: `clip ${durationSec} s > max_video_post_duration_sec ${max}`,
    });
  }
}
