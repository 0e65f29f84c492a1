import type { AppDeps } from '../../deps.ts';
import type { ClipRow } from '../../clips/service.ts';
import type { AccountPlatform, PostStats } from '../../../platform/db/schema.ts';
import type { AccountRow, UploadRow } from '../queries.ts';

/*
 * What differs from one platform to another, behind one interface: connecting an account, keeping
 * its token fresh, posting a clip and reading its statistics. Everything around it — the OAuth
 * state, the row lock of a refresh, the post job's claim, retries, events and logs, the statistics
 * schedule — is one code path for every platform (oauth.ts, tokens.ts, jobs/post.ts, stats.ts).
 */

export interface Owner {
  userId: string;
  via: 'owner' | 'guest';
}

/** A code from the callback and the PKCE verifier of the flow whose state came with it. */
export interface Grant {
  code: string;
  codeVerifier: string;
}

/** The token columns a refresh writes (those a platform does not rotate are left out). */
export interface TokenColumns {
  access_token_enc: string;
  access_expires_at: Date;
  refresh_token_enc?: string;
  refresh_expires_at?: Date | null;
  scope?: string;
}

/** A fresh access token of one account; a token the platform refuses mid-way is refreshed once and the step tried again. */
export interface AccountToken {
  use<T>(step: (accessToken: string) => Promise<T>): Promise<T>;
}

/** One due, unfinished upload handed to its platform by the post job. */
export interface PostRun {
  deps: AppDeps;
  upload: UploadRow;
  clip: ClipRow;
  token: AccountToken;
  /** Where a copy of the video may go (a bucket's); the job removes it whatever happens. */
  scratchDir: string;
  signal: AbortSignal;
}

/** How a post run ended, for the job to record (or to look again later). */
export type PostOutcome =
  | { status: 'published'; externalId: string | null; shareUrl: string | null; warning?: string | null }
  | { status: 'sent_to_inbox' }
  /** The platform still processes the video: a later job looks again (nothing is sent again). */
  | { status: 'pending'; recheckAt: Date }
  /** Canceled (or taken by another job) before it was claimed: nothing to record. */
  | { status: 'unclaimed' };

export interface PlatformAdapter {
  platform: AccountPlatform;
  /** Who runs the consent page, as the user knows them ("Google" for YouTube). */
  provider: string;
  /** Null when the platform is configured on this server, else what to set. */
  configurationProblem(deps: AppDeps): string | null;

  /** The consent page's URL (the platform is configured). */
  authorizeUrl(deps: AppDeps, request: { state: string; codeVerifier: string }): string;
  /** The refusal a callback carries (`?error=`), or null. */
  refusal(query: URLSearchParams): Error | null;
  /** Code → tokens → profile → the owner's account rows (a Facebook login brings every Page). */
  connect(deps: AppDeps, owner: Owner, grant: Grant): Promise<AccountRow[]>;
  /** The account in the log's words. */
  describe(account: Pick<AccountRow, 'display_name' | 'username'>): string;

  /** A new access token from the stored refresh token (for Instagram: the long-lived token itself). */
  refresh(deps: AppDeps, refreshToken: string, now: number, signal?: AbortSignal): Promise<{ token: string; columns: TokenColumns }>;
  /** The platform refused the refresh for good: the account needs reconnecting. */
  grantDead(error: unknown): boolean;
  /** The platform refused an access token mid-way: refresh once and try the step again. */
  tokenRefused(error: unknown): boolean;
  /** Courtesy revocation when the user removes the account. */
  revoke?(deps: AppDeps, accessToken: string): Promise<void>;

  /** One upload to the platform, at most once: what it saves before sending keeps a retry from posting twice. */
  post(run: PostRun): Promise<PostOutcome>;
  /** A refusal after which the post waits (quota, rate or publishing limit) instead of failing: true when it was put back. */
  waitAfter?(deps: AppDeps, upload: UploadRow, error: unknown): Promise<boolean>;
  /** Worth another attempt of the job (5xx, a transfer that kept failing). */
  retryable(error: unknown): boolean;
  /** The account was removed after the platform may have received the video. */
  removedMidway: string;
  /** The account was removed before anything was sent. */
  removedBefore: string;

  /** The counts of these posts by the platform's post id; absent ids are gone. */
  readCounts(deps: AppDeps, token: AccountToken, externalIds: readonly string[], signal?: AbortSignal): Promise<Map<string, PostStats>>;
  /** The reading failed in a way only the user can mend (a refused grant, a missing permission). */
  waitsForUser(error: unknown): boolean;
}
