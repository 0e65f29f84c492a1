import { createHash, randomBytes, randomUUID } from 'node:crypto';

/*
 * What the fake TikTok remembers: users, codes, tokens, uploads and posts, and the rules of
 * external-apis.md part B that do not depend on HTTP (chunking, caps, privacy). Independent of the
 * real client's code on purpose, so a shared misunderstanding cannot hide a bug.
 */

export const SCOPES_BY_FIELD: Readonly<Record<string, string>> = {
  open_id: 'user.info.basic',
  union_id: 'user.info.basic',
  avatar_url: 'user.info.basic',
  avatar_url_100: 'user.info.basic',
  avatar_large_url: 'user.info.basic',
  display_name: 'user.info.basic',
  bio_description: 'user.info.profile',
  profile_deep_link: 'user.info.profile',
  is_verified: 'user.info.profile',
  username: 'user.info.profile',
  follower_count: 'user.info.stats',
  following_count: 'user.info.stats',
  likes_count: 'user.info.stats',
  video_count: 'user.info.stats',
};

export const KNOWN_SCOPES = ['user.info.basic', 'user.info.profile', 'user.info.stats', 'video.list', 'video.publish', 'video.upload'];
export const PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];
const PUBLIC_ACCOUNT_OPTIONS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
const PRIVATE_ACCOUNT_OPTIONS = ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];

export const MIB = 1024 * 1024;
const DAY_MS = 86_400_000;
const CODE_LIFETIME_MS = 10 * 60_000;
const UPLOAD_URL_LIFETIME_MS = 60 * 60_000;

export interface FakeTikTokUser {
  openId: string;
  unionId: string;
  displayName: string;
  username: string;
  avatarUrl: string;
  isPrivate: boolean;
  /** Defaults from isPrivate (B5): public → PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, SELF_ONLY; private → FOLLOWER_OF_CREATOR, MUTUAL_FOLLOW_FRIENDS, SELF_ONLY. */
  privacyLevelOptions: string[];
  maxVideoPostDurationSec: number;
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  bannedFromPosting: boolean;
  /** Scopes this user ticks on the consent page; null grants everything asked for. */
  grantScopes: string[] | null;
}

export interface AddTikTokUserInput {
  openId?: string;
  unionId?: string;
  displayName: string;
  username: string;
  avatarUrl?: string;
  isPrivate?: boolean;
  privacyLevelOptions?: string[];
  maxVideoPostDurationSec?: number;
  commentDisabled?: boolean;
  duetDisabled?: boolean;
  stitchDisabled?: boolean;
  bannedFromPosting?: boolean;
  grantScopes?: string[] | null;
}

interface AuthCode {
  openId: string;
  scopes: string[];
  redirectUri: string;
  /** The authorize request's code_challenge (S256, hex as TikTok wants it), when it sent one. */
  codeChallenge: string | null;
  expiresAt: number;
  used: boolean;
}

/** TikTok's S256: the verifier's SHA-256 in hex (external-apis.md B1, the desktop guide). */
const hexS256 = (verifier: string) => createHash('sha256').update(verifier).digest('hex');

export interface FakeAccessToken {
  openId: string;
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
}

interface FakeRefreshToken {
  openId: string;
  scopes: string[];
  expiresAt: number;
  /** Rotated away or revoked: refusing it is the point of rotation. */
  dead: boolean;
}

export interface FakeUploadChunk {
  start: number;
  end: number;
  size: number;
}

export interface FakeUpload {
  publishId: string;
  uploadId: string;
  uploadToken: string;
  videoSize: number;
  chunkSize: number;
  totalChunkCount: number;
  expiresAt: number;
  receivedBytes: number;
  /** Chunks accepted, in order. */
  chunks: FakeUploadChunk[];
  complete: boolean;
  /** Every byte accepted so far, in order. */
  bytes(): Buffer;
}

export type FakePostStatus = 'PROCESSING_UPLOAD' | 'SEND_TO_USER_INBOX' | 'PUBLISH_COMPLETE' | 'FAILED';

export interface FakePost {
  publishId: string;
  openId: string;
  mode: 'direct' | 'inbox';
  /** The post_info sent to init (direct only). */
  postInfo: Record<string, unknown> | null;
  status: FakePostStatus;
  failReason: string | null;
  /** Set at init from failNextPublish: processing ends FAILED with this reason. */
  plannedFailReason: string | null;
  publicPostIds: string[];
  createdAt: number;
  /** Status fetches since the upload completed. */
  pollsAfterUpload: number;
  /** Inbox only: the user posted the draft from the TikTok app. */
  postedFromInbox: boolean;
}

/** What TikTok's video query tells about a published post; tests set the counts. */
export interface FakeVideoStats {
  views: number;
  likes: number;
  comments: number;
  shares: number;
  /** Unix seconds. */
  createTime: number;
  /** Deleted by the creator: the video query no longer returns it. */
  deleted: boolean;
}

export interface SourceInfo {
  videoSize: number;
  chunkSize: number;
  totalChunkCount: number;
}

interface StoredUpload extends FakeUpload {
  parts: Buffer[];
}

export class FakeTikTokState {
  readonly users = new Map<string, FakeTikTokUser>();
  readonly codes = new Map<string, AuthCode>();
  readonly accessTokens = new Map<string, FakeAccessToken>();
  readonly refreshTokens = new Map<string, FakeRefreshToken>();
  readonly uploads = new Map<string, FakeUpload>();
  readonly posts = new Map<string, FakePost>();
  /** Public post id → its counts, for every post that became publicly available. */
  readonly videos = new Map<string, FakeVideoStats & { openId: string }>();
  private readonly uploadsById = new Map<string, StoredUpload>();
  private nextPublish = 123_456_789;
  private nextPostId = 7_412_345_678_901_234_567n;

  accessTokenLifetimeSeconds = 86_400;
  refreshTokenLifetimeSeconds = 31_536_000;
  unaudited = false;
  dailyPostCap = 15;
  pendingShareCap = 5;
  activeUserCap = 5;
  pollsUntilDone = 2;
  readonly publishFailures: string[] = [];

  constructor(
    private readonly now: () => number,
    private readonly baseUrl: () => string,
  ) {}

  addUser(input: AddTikTokUserInput): FakeTikTokUser {
    const isPrivate = input.isPrivate ?? false;
    const openId = input.openId ?? randomUUID();
    const user: FakeTikTokUser = {
      openId,
      unionId: input.unionId ?? randomUUID(),
      displayName: input.displayName,
      username: input.username,
      avatarUrl: input.avatarUrl ?? `https://p16-sign.tiktokcdn-us.com/tos-avt-0068-tx/${openId}~c5_168x168.jpeg`,
      isPrivate,
      privacyLevelOptions: input.privacyLevelOptions ?? [...(isPrivate ? PRIVATE_ACCOUNT_OPTIONS : PUBLIC_ACCOUNT_OPTIONS)],
      maxVideoPostDurationSec: input.maxVideoPostDurationSec ?? 600,
      commentDisabled: input.commentDisabled ?? false,
      duetDisabled: input.duetDisabled ?? false,
      stitchDisabled: input.stitchDisabled ?? true,
      bannedFromPosting: input.bannedFromPosting ?? false,
      grantScopes: input.grantScopes ?? null,
    };
    this.users.set(openId, user);
    return user;
  }

  // ---- OAuth -------------------------------------------------------------------------------

  /** Real codes carry characters that must be URL-decoded before the exchange (B1): `*` and `!`. */
  issueCode(openId: string, scopes: string[], redirectUri: string, codeChallenge: string | null = null): string {
    const code = `${randomBytes(24).toString('base64url')}*3!${randomBytes(4).toString('hex')}.va`;
    this.codes.set(code, { openId, scopes, redirectUri, codeChallenge, expiresAt: this.now() + CODE_LIFETIME_MS, used: false });
    return code;
  }

  /**
   * The code's grant, consuming it; a reason string when it cannot be used. A code whose authorize
   * request carried a PKCE challenge needs the verifier behind it.
   */
  redeemCode(code: string, redirectUri: string, codeVerifier?: string): { openId: string; scopes: string[] } | { error: 'invalid_grant' | 'invalid_request'; description: string } {
    const stored = this.codes.get(code);
    if (!stored) return { error: 'invalid_grant', description: 'Authorization code is invalid.' };
    if (stored.used) return { error: 'invalid_grant', description: 'Authorization code has been used.' };
    if (stored.expiresAt <= this.now()) return { error: 'invalid_grant', description: 'Authorization code is expired.' };
    if (stored.redirectUri !== redirectUri) return { error: 'invalid_request', description: 'Redirect_uri is not matched with the uri when requesting code.' };
    if (stored.codeChallenge !== null && (codeVerifier === undefined || hexS256(codeVerifier) !== stored.codeChallenge)) {
      return { error: 'invalid_request', description: 'Code verifier or code challenge is invalid.' };
    }
    stored.used = true;
    return { openId: stored.openId, scopes: stored.scopes };
  }

  issueTokens(openId: string, scopes: string[]): { accessToken: string; refreshToken: string } {
    const accessToken = `act.${randomBytes(30).toString('base64url')}!${randomBytes(3).toString('hex')}.va`;
    const refreshToken = `rft.${randomBytes(30).toString('base64url')}!${randomBytes(3).toString('hex')}.va`;
    const now = this.now();
    this.accessTokens.set(accessToken, { openId, scopes, expiresAt: now + this.accessTokenLifetimeSeconds * 1000, revoked: false });
    this.refreshTokens.set(refreshToken, { openId, scopes, expiresAt: now + this.refreshTokenLifetimeSeconds * 1000, dead: false });
    return { accessToken, refreshToken };
  }

  /** Rotation: the presented refresh token dies and a new pair is issued (B2, the Nov 2026 docs). */
  rotate(refreshToken: string): { openId: string; scopes: string[]; accessToken: string; refreshToken: string } | null {
    const stored = this.refreshTokens.get(refreshToken);
    if (!stored || stored.dead || stored.expiresAt <= this.now()) return null;
    stored.dead = true;
    return { openId: stored.openId, scopes: stored.scopes, ...this.issueTokens(stored.openId, stored.scopes) };
  }

  /** Revoking one access token deauthorises the app for that user: every token of theirs dies. */
  revoke(accessToken: string): void {
    const stored = this.accessTokens.get(accessToken);
    if (!stored) return;
    for (const token of this.accessTokens.values()) if (token.openId === stored.openId) token.revoked = true;
    for (const token of this.refreshTokens.values()) if (token.openId === stored.openId) token.dead = true;
  }

  validAccessToken(token: string | undefined): FakeAccessToken | null {
    const stored = token === undefined ? undefined : this.accessTokens.get(token);
    if (!stored || stored.revoked || stored.expiresAt <= this.now()) return null;
    return stored;
  }

  expireAccessTokens(openId?: string): void {
    for (const token of this.accessTokens.values()) if (openId === undefined || token.openId === openId) token.expiresAt = 0;
  }

  // ---- Content Posting ------------------------------------------------------------------------

  private postsWithin24h(openId?: string): FakePost[] {
    const since = this.now() - DAY_MS;
    return [...this.posts.values()].filter((post) => post.createdAt > since && (openId === undefined || post.openId === openId));
  }

  directPostsToday(openId: string): number {
    return this.postsWithin24h(openId).filter((post) => post.mode === 'direct').length;
  }

  pendingShares(openId: string): number {
    return this.postsWithin24h(openId).filter((post) => post.mode === 'inbox' && !post.postedFromInbox && post.status !== 'FAILED').length;
  }

  /** Unaudited apps: at most activeUserCap distinct users posting per 24 h (B5). */
  overActiveUserCap(openId: string): boolean {
    if (!this.unaudited) return false;
    const active = new Set(this.postsWithin24h().map((post) => post.openId));
    return !active.has(openId) && active.size >= this.activeUserCap;
  }

  createPost(openId: string, mode: 'direct' | 'inbox', postInfo: Record<string, unknown> | null, source: SourceInfo): { publishId: string; uploadUrl: string } {
    const number = this.nextPublish++;
    const publishId = mode === 'direct' ? `v_pub_file~v2-1.${number}` : `v_inbox_file~v2.${number}`;
    const uploadId = String(number);
    const uploadToken = randomBytes(12).toString('base64url');
    const parts: Buffer[] = [];
    const upload: StoredUpload = {
      publishId,
      uploadId,
      uploadToken,
      ...source,
      expiresAt: this.now() + UPLOAD_URL_LIFETIME_MS,
      receivedBytes: 0,
      chunks: [],
      complete: false,
      parts,
      bytes: () => Buffer.concat(parts),
    };
    this.uploads.set(publishId, upload);
    this.uploadsById.set(uploadId, upload);
    this.posts.set(publishId, {
      publishId,
      openId,
      mode,
      postInfo,
      status: 'PROCESSING_UPLOAD',
      failReason: null,
      plannedFailReason: this.publishFailures.shift() ?? null,
      publicPostIds: [],
      createdAt: this.now(),
      pollsAfterUpload: 0,
      postedFromInbox: false,
    });
    return { publishId, uploadUrl: `${this.baseUrl()}/upload/?upload_id=${uploadId}&upload_token=${uploadToken}` };
  }

  findUpload(uploadId: string | null, uploadToken: string | null): StoredUpload | null {
    const upload = uploadId === null ? undefined : this.uploadsById.get(uploadId);
    return upload && upload.uploadToken === uploadToken ? upload : null;
  }

  uploadExpired(upload: FakeUpload): boolean {
    return upload.expiresAt <= this.now();
  }

  acceptChunk(upload: StoredUpload, start: number, body: Buffer): void {
    upload.parts.push(body);
    upload.chunks.push({ start, end: start + body.length - 1, size: body.length });
    upload.receivedBytes = start + body.length;
    upload.complete = upload.receivedBytes === upload.videoSize;
  }

  /** One status fetch: processing advances only after the upload completed, one step per poll. */
  poll(post: FakePost): void {
    const upload = this.uploads.get(post.publishId);
    if (post.status !== 'PROCESSING_UPLOAD' || !upload?.complete) return;
    post.pollsAfterUpload++;
    if (post.pollsAfterUpload < this.pollsUntilDone) return;
    if (post.plannedFailReason) {
      post.status = 'FAILED';
      post.failReason = post.plannedFailReason;
      return;
    }
    post.status = post.mode === 'direct' ? 'PUBLISH_COMPLETE' : 'SEND_TO_USER_INBOX';
    if (post.mode === 'direct' && post.postInfo?.privacy_level === 'PUBLIC_TO_EVERYONE') {
      const postId = this.newPostId();
      post.publicPostIds.push(postId);
      this.videos.set(postId, { openId: post.openId, views: 0, likes: 0, comments: 0, shares: 0, createTime: Math.floor(this.now() / 1000), deleted: false });
    }
  }

  /** The user posts an inbox draft from the TikTok app. */
  publishFromInbox(publishId: string): void {
    const post = this.posts.get(publishId);
    if (!post || post.mode !== 'inbox') throw new Error(`no inbox upload ${publishId}`);
    post.postedFromInbox = true;
    post.status = 'PUBLISH_COMPLETE';
  }

  /** int64 ids beyond 2^53, as TikTok's are, so a client that rounds them is caught. */
  private newPostId(): string {
    const id = this.nextPostId;
    this.nextPostId += 1n;
    return id.toString();
  }
}

/**
 * The Media Transfer Guide's rules for source_info (B5), in MiB: the reason it breaks them, or null.
 * total_chunk_count = floor(video_size / chunk_size); chunks 5–64 MiB, the final one up to 128 MiB;
 * under 5 MiB one chunk of the whole video; over 64 MiB at least two chunks; 1–1000 chunks; ≤ 4 GiB.
 */
export function chunkRuleViolation(source: SourceInfo): string | null {
  const { videoSize, chunkSize, totalChunkCount } = source;
  if (![videoSize, chunkSize, totalChunkCount].every(Number.isSafeInteger)) return 'video_size, chunk_size and total_chunk_count must be integers';
  if (videoSize < 1 || videoSize > 4 * 1024 * MIB) return 'video_size must be between 1 byte and 4 GB';
  if (videoSize < 5 * MIB) {
    return chunkSize === videoSize && totalChunkCount === 1 ? null : 'a video under 5 MB must be one chunk with chunk_size = video_size';
  }
  if (chunkSize < 5 * MIB || chunkSize > 64 * MIB) return 'chunk_size must be between 5 MB and 64 MB';
  if (totalChunkCount !== Math.floor(videoSize / chunkSize)) return 'total_chunk_count must be floor(video_size / chunk_size)';
  if (totalChunkCount < 1 || totalChunkCount > 1000) return 'total_chunk_count must be between 1 and 1000';
  if (videoSize - (totalChunkCount - 1) * chunkSize > 128 * MIB) return 'the final chunk must not exceed 128 MB';
  if (videoSize > 64 * MIB && totalChunkCount < 2) return 'a video over 64 MB must be uploaded in chunks';
  return null;
}

/** The size chunk number `index` must have: chunk_size, except the final one which takes the rest. */
export function expectedChunkSize(upload: SourceInfo, index: number): number {
  return index === upload.totalChunkCount - 1 ? upload.videoSize - index * upload.chunkSize : upload.chunkSize;
}
