import { createHash, randomBytes } from 'node:crypto';

/*
 * What the fake YouTube remembers: Google users and their channels, codes, grants and tokens, the
 * project's quota, resumable upload sessions and videos. Written independently of the real client
 * on purpose, so a shared misunderstanding of Google's rules cannot hide a bug.
 */

export const UPLOAD_SCOPE = 'https://www.googleapis.com/auth/youtube.upload';
export const READONLY_SCOPE = 'https://www.googleapis.com/auth/youtube.readonly';
export const FULL_SCOPE = 'https://www.googleapis.com/auth/youtube';
export const KNOWN_SCOPES = [UPLOAD_SCOPE, READONLY_SCOPE, FULL_SCOPE, 'https://www.googleapis.com/auth/youtube.force-ssl', 'openid', 'email', 'profile'];
/** Resumable chunks (all but the last) are multiples of this. */
export const UPLOAD_BLOCK = 256 * 1024;
export const DEFAULT_DAILY_QUOTA = 10_000;
/** Uploads (videos.insert) have a daily bucket of their own, one call each. */
export const DEFAULT_DAILY_UPLOADS = 100;
/** Units per call of the shared bucket, as in Google's quota calculator. */
export const QUOTA_COST = { list: 1 } as const;
const CODE_LIFETIME_MS = 10 * 60_000;
/** Google's resumable sessions last about a week. */
const SESSION_LIFETIME_MS = 7 * 86_400_000;

export interface FakeChannel {
  id: string;
  title: string;
  /** "@handle" */
  handle: string;
  avatarUrl: string;
}

export interface FakeGoogleUser {
  /** Google account id (the id token's sub). */
  sub: string;
  email: string;
  /** null: a Google account that never created a YouTube channel. */
  channel: FakeChannel | null;
}

export interface AddGoogleUserInput {
  sub?: string;
  email?: string;
  /** The channel's title; null creates an account without a channel. */
  channelTitle: string | null;
  handle?: string;
  channelId?: string;
}

interface AuthCode {
  sub: string;
  scopes: string[];
  redirectUri: string;
  offline: boolean;
  /** The consent request's PKCE challenge and method (RFC 7636), when it sent one. */
  pkce: CodeChallenge | null;
  expiresAt: number;
  used: boolean;
}

export interface CodeChallenge {
  challenge: string;
  method: 'S256' | 'plain';
}

/** RFC 7636: S256 is the verifier's SHA-256 in base64url, plain the verifier itself. */
function challengeOf(verifier: string, method: CodeChallenge['method']): string {
  return method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
}

export interface FakeToken {
  sub: string;
  scopes: string[];
  /** Access tokens only; refresh tokens live until revoked. */
  expiresAt: number;
  revoked: boolean;
}

export interface FakeUploadSession {
  uploadId: string;
  sub: string;
  channelId: string;
  size: number;
  /** The JSON sent to the initiation: snippet and status. */
  resource: { snippet: Record<string, unknown>; status: Record<string, unknown> };
  /** The initiation's notifySubscribers query parameter (absent: YouTube's default, true). */
  notifySubscribers: boolean;
  expiresAt: number;
  /** Bytes the session holds (the Range it reports). */
  received: number;
  /** Every body byte that reached the fake for this session, kept or not: what the client re-sent shows here. */
  bytesReceived: number;
  /** Data PUTs that reached the fake, dropped and failed ones included. */
  chunkRequests: number;
  /** Each connection the fake cut: body bytes it had read, and how many of them it kept. */
  drops: { read: number; kept: number }[];
  videoId: string | null;
  bytes(): Buffer;
}

export type FakeProcessingStatus = 'processing' | 'succeeded' | 'failed' | 'terminated';

export interface FakeVideo {
  id: string;
  sub: string;
  channelId: string;
  snippet: Record<string, unknown>;
  uploadStatus: 'uploaded' | 'processed' | 'rejected' | 'failed';
  privacyStatus: string;
  selfDeclaredMadeForKids: boolean;
  /** The initiation's notifySubscribers (YouTube's default when absent: true). */
  notifySubscribers: boolean;
  rejectionReason: string | null;
  failureReason: string | null;
  processingStatus: FakeProcessingStatus;
  statistics: { viewCount: number; likeCount: number; commentCount: number; favoriteCount: number };
  bytes: Buffer;
}

interface StoredSession extends FakeUploadSession {
  parts: Buffer[];
}

/** The quota day, as Google counts it: the calendar date in Los Angeles. */
const pacificDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit' });

function randomId(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

export class FakeYouTubeState {
  readonly users = new Map<string, FakeGoogleUser>();
  readonly codes = new Map<string, AuthCode>();
  readonly accessTokens = new Map<string, FakeToken>();
  readonly refreshTokens = new Map<string, FakeToken>();
  readonly sessions = new Map<string, FakeUploadSession>();
  readonly videos = new Map<string, FakeVideo>();
  private readonly storedSessions = new Map<string, StoredSession>();
  private userCount = 0;

  accessTokenLifetimeSeconds = 3599;
  dailyQuota = DEFAULT_DAILY_QUOTA;
  dailyUploads = DEFAULT_DAILY_UPLOADS;
  /** An unaudited Google Cloud project: YouTube keeps every uploaded video private, whatever was asked. */
  lockPrivate = false;
  private quotaUsed = 0;
  private uploadsUsed = 0;
  private quotaDay = '';

  constructor(private readonly now: () => number) {}

  addUser(input: AddGoogleUserInput): FakeGoogleUser {
    this.userCount++;
    const sub = input.sub ?? String(100_000_000_000_000_000_000n + BigInt(this.userCount) * 7_919n);
    const handle = input.handle ?? `@creator${this.userCount}`;
    const channelId = input.channelId ?? `UC${randomId(16).slice(0, 22)}`;
    const user: FakeGoogleUser = {
      sub,
      email: input.email ?? `creator${this.userCount}@gmail.example`,
      channel:
        input.channelTitle === null
          ? null
          : { id: channelId, title: input.channelTitle, handle, avatarUrl: `https://yt3.ggpht.com/${channelId}=s88-c-k-c0x00ffffff-no-rj` },
    };
    this.users.set(sub, user);
    return user;
  }

  // ---- OAuth -------------------------------------------------------------------------------

  issueCode(sub: string, scopes: string[], redirectUri: string, offline: boolean, pkce: CodeChallenge | null = null): string {
    // Google's codes start with "4/" and carry "/": the callback must URL-decode them before the exchange.
    const code = `4/0A${randomId(30)}/${randomId(6)}`;
    this.codes.set(code, { sub, scopes, redirectUri, offline, pkce, expiresAt: this.now() + CODE_LIFETIME_MS, used: false });
    return code;
  }

  /**
   * The code's grant, consuming it; Google's error otherwise. A code whose consent request carried
   * a PKCE challenge needs the verifier behind it (invalid_grant without it or with another).
   */
  redeemCode(code: string, redirectUri: string, codeVerifier?: string): AuthCode | { error: string; description: string } {
    const stored = this.codes.get(code);
    if (!stored || stored.used || stored.expiresAt <= this.now()) return { error: 'invalid_grant', description: 'Token has been expired or revoked.' };
    if (stored.redirectUri !== redirectUri) return { error: 'redirect_uri_mismatch', description: 'Bad Request' };
    if (stored.pkce && codeVerifier === undefined) return { error: 'invalid_grant', description: 'Missing code verifier.' };
    if (stored.pkce && challengeOf(codeVerifier ?? '', stored.pkce.method) !== stored.pkce.challenge) {
      return { error: 'invalid_grant', description: 'Invalid code verifier.' };
    }
    stored.used = true;
    return stored;
  }

  issueTokens(sub: string, scopes: string[], offline: boolean): { accessToken: string; refreshToken: string | null } {
    const refreshToken = offline ? `1//0${randomId(60)}` : null;
    if (refreshToken) this.refreshTokens.set(refreshToken, { sub, scopes, expiresAt: Number.POSITIVE_INFINITY, revoked: false });
    return { accessToken: this.issueAccessToken(sub, scopes), refreshToken };
  }

  issueAccessToken(sub: string, scopes: string[]): string {
    const accessToken = `ya29.a0${randomId(90)}`;
    this.accessTokens.set(accessToken, { sub, scopes, expiresAt: this.now() + this.accessTokenLifetimeSeconds * 1000, revoked: false });
    return accessToken;
  }

  liveRefreshToken(token: string): FakeToken | null {
    const stored = this.refreshTokens.get(token);
    return stored && !stored.revoked ? stored : null;
  }

  validAccessToken(token: string | undefined): FakeToken | null {
    const stored = token === undefined ? undefined : this.accessTokens.get(token);
    if (!stored || stored.revoked || stored.expiresAt <= this.now()) return null;
    return stored;
  }

  /** The user removed the app in their Google account: every token of theirs dies. */
  revoke(sub: string): void {
    for (const token of [...this.accessTokens.values(), ...this.refreshTokens.values()]) if (token.sub === sub) token.revoked = true;
  }

  expireAccessTokens(sub?: string): void {
    for (const token of this.accessTokens.values()) if (sub === undefined || token.sub === sub) token.expiresAt = 0;
  }

  // ---- Quota ----------------------------------------------------------------------------------

  private rollQuotaDay(): void {
    const day = pacificDate.format(new Date(this.now()));
    if (day === this.quotaDay) return;
    this.quotaDay = day;
    this.quotaUsed = 0;
    this.uploadsUsed = 0;
  }

  /** Spends one of today's uploads; false (nothing spent) when none are left. */
  spendUpload(): boolean {
    this.rollQuotaDay();
    if (this.uploadsUsed >= this.dailyUploads) return false;
    this.uploadsUsed++;
    return true;
  }

  uploadsLeft(): number {
    this.rollQuotaDay();
    return Math.max(0, this.dailyUploads - this.uploadsUsed);
  }

  /** Leaves `uploads` for the rest of today (Pacific). */
  setUploadsLeft(uploads: number): void {
    this.rollQuotaDay();
    this.uploadsUsed = this.dailyUploads - uploads;
  }

  /** Spends units of today's quota; false (nothing spent) when there are not enough left. */
  spend(units: number): boolean {
    this.rollQuotaDay();
    if (this.quotaUsed + units > this.dailyQuota) return false;
    this.quotaUsed += units;
    return true;
  }

  quotaLeft(): number {
    this.rollQuotaDay();
    return Math.max(0, this.dailyQuota - this.quotaUsed);
  }

  /** Leaves `units` for the rest of today (Pacific); the full daily quota returns at the next midnight there. */
  setQuotaLeft(units: number): void {
    this.rollQuotaDay();
    this.quotaUsed = this.dailyQuota - units;
  }

  // ---- Uploads --------------------------------------------------------------------------------

  createSession(user: FakeGoogleUser & { channel: FakeChannel }, size: number, resource: FakeUploadSession['resource'], notifySubscribers: boolean): StoredSession {
    const parts: Buffer[] = [];
    const session: StoredSession = {
      uploadId: `AUwvE${randomId(40)}`,
      sub: user.sub,
      channelId: user.channel.id,
      size,
      resource,
      notifySubscribers,
      expiresAt: this.now() + SESSION_LIFETIME_MS,
      received: 0,
      bytesReceived: 0,
      chunkRequests: 0,
      drops: [],
      videoId: null,
      parts,
      bytes: () => Buffer.concat(parts),
    };
    this.sessions.set(session.uploadId, session);
    this.storedSessions.set(session.uploadId, session);
    return session;
  }

  liveSession(uploadId: string | null): StoredSession | null {
    const session = uploadId === null ? undefined : this.storedSessions.get(uploadId);
    return session && session.expiresAt > this.now() ? session : null;
  }

  expireSession(uploadId?: string): void {
    for (const session of this.storedSessions.values()) if (uploadId === undefined || session.uploadId === uploadId) session.expiresAt = 0;
  }

  keep(session: StoredSession, bytes: Buffer): void {
    session.parts.push(bytes);
    session.received += bytes.length;
  }

  /** What a 308 without Range means: the session holds nothing any more. */
  forget(session: StoredSession): void {
    session.parts.length = 0;
    session.received = 0;
  }

  /** The whole file arrived: the video exists, "uploaded" and processing. */
  finish(session: StoredSession): FakeVideo {
    const id = randomId(9).replace(/[^A-Za-z0-9_-]/g, '').slice(0, 11).padEnd(11, 'x');
    const video: FakeVideo = {
      id,
      sub: session.sub,
      channelId: session.channelId,
      snippet: { ...session.resource.snippet, channelId: session.channelId, publishedAt: new Date(this.now()).toISOString() },
      uploadStatus: 'uploaded',
      privacyStatus: this.lockPrivate ? 'private' : String(session.resource.status.privacyStatus),
      selfDeclaredMadeForKids: session.resource.status.selfDeclaredMadeForKids === true,
      notifySubscribers: session.notifySubscribers,
      rejectionReason: null,
      failureReason: null,
      processingStatus: 'processing',
      statistics: { viewCount: 0, likeCount: 0, commentCount: 0, favoriteCount: 0 },
      bytes: session.bytes(),
    };
    session.videoId = id;
    this.videos.set(id, video);
    return video;
  }
}

/** YouTube's count for the tags limit: lengths, commas between, and quotes around a tag with a space. */
export function tagsLength(tags: readonly string[]): number {
  return tags.reduce((sum, tag, index) => sum + tag.length + (tag.includes(' ') ? 2 : 0) + (index > 0 ? 1 : 0), 0);
}
