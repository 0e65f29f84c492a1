/**
 * What went wrong when talking to Twitch, in terms a caller can act on:
 * - auth: credentials rejected (bad client id/secret, token refused even after minting a new one)
 * - bad_request: Twitch refused our parameters (400); retrying the same request cannot help
 * - not_found: 404 from Helix or from the clip CDN
 * - rate_limited: still 429 after waiting for the bucket to refill several times
 * - upstream: 5xx or network failure that outlived the retries, or a response we cannot read
 * - persisted_query_not_found: every configured GQL hash was rejected (hashes rotated)
 * - null_clip: GQL knows no clip with this slug (deleted or never existed)
 * - no_source: the clip exists but offers no downloadable quality
 * - transfer: the MP4 download broke or came up short on every attempt
 * - aborted: the caller's AbortSignal fired
 * - token_refused: Helix refused a user access token (401): refresh it, then the user reconnects
 * - grant_refused: id.twitch.tv refused a code or a refresh token (400/401): the user must connect again
 * - forbidden: 403, the user's token lacks a scope or the user is no editor of the channel
 */
export type TwitchErrorKind =
  | 'auth'
  | 'bad_request'
  | 'not_found'
  | 'rate_limited'
  | 'upstream'
  | 'persisted_query_not_found'
  | 'null_clip'
  | 'no_source'
  | 'transfer'
  | 'aborted'
  | 'token_refused'
  | 'grant_refused'
  | 'forbidden';

export class TwitchError extends Error {
  override name = 'TwitchError';
  readonly kind: TwitchErrorKind;
  /** HTTP status of the response that caused it, when there was one. */
  readonly status: number | undefined;

  constructor(kind: TwitchErrorKind, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
  }
}

export function isTwitchError(error: unknown, kind?: TwitchErrorKind): error is TwitchError {
  return error instanceof TwitchError && (kind === undefined || error.kind === kind);
}

export function abortedError(what: string, cause?: unknown): TwitchError {
  return new TwitchError('aborted', `${what} was cancelled`, { cause });
}
