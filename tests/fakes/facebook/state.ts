import { randomBytes, randomInt } from 'node:crypto';

/*
 * What the fake Facebook remembers: people and the Pages they manage, codes, user and Page tokens,
 * Reel uploads with the exact bytes the upload host kept, and published Reels with their counts.
 * Written independently of the real client on purpose, so a shared misunderstanding of Meta's
 * rules cannot hide a bug.
 */

export const PAGE_SCOPES = ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'publish_video'];
export const KNOWN_SCOPES = ['public_profile', 'email', ...PAGE_SCOPES, 'pages_manage_engagement', 'pages_read_user_content', 'business_management'];
export const SHORT_TOKEN_SECONDS = 3_600;
export const LONG_TOKEN_SECONDS = 5_183_944;
const CODE_LIFETIME_MS = 10 * 60_000;

export interface FakeFacebookUser {
  userId: string;
  name: string;
}

export interface FakePage {
  pageId: string;
  name: string;
  ownerUserId: string;
  pictureUrl: string;
  tasks: string[];
}

interface AuthCode {
  userId: string;
  scopes: string[];
  redirectUri: string;
  expiresAt: number;
  used: boolean;
}

export interface FakeToken {
  userId: string;
  scopes: string[];
  kind: 'short' | 'long' | 'page';
  /** The Page a Page token acts for. */
  pageId: string | null;
  expiresAt: number;
  revoked: boolean;
}

export type ReelPhase = 'uploading' | 'uploaded' | 'processing' | 'published' | 'error';

/** One connection the fake cut mid-upload: where it started, the bytes it read and kept. */
export interface UploadBreak {
  offset: number;
  read: number;
  kept: number;
}

export interface FakeReel {
  videoId: string;
  pageId: string;
  /** file_size as the first upload request declared it. */
  fileSize: number | null;
  /** Bytes the upload host holds: uploading_phase.bytes_transferred. */
  received: number;
  /** Every body byte that reached the upload host, kept or not: what the client re-sent shows here. */
  bytesReceived: number;
  /** Upload POSTs that reached the fake, failed and cut ones included. */
  uploadRequests: number;
  breaks: UploadBreak[];
  phase: ReelPhase;
  description: string | null;
  videoState: string | null;
  /** Status reads since finish, for processing that takes a while. */
  processingPolls: number;
  processingError: string | null;
  postId: string | null;
  publishedAt: number | null;
  views: number;
  likes: number;
  comments: number;
  shares: number;
  bytes(): Buffer;
}

interface StoredReel extends FakeReel {
  parts: Buffer[];
}

function numericId(prefix: string, length = 15): string {
  let digits = prefix;
  while (digits.length < length) digits += String(randomInt(0, 10));
  return digits;
}

function token(): string {
  return `EAAG${randomBytes(60).toString('base64url')}`;
}

export class FakeFacebookState {
  readonly users = new Map<string, FakeFacebookUser>();
  readonly pages = new Map<string, FakePage>();
  readonly codes = new Map<string, AuthCode>();
  readonly tokens = new Map<string, FakeToken>();
  readonly reels = new Map<string, FakeReel>();
  private readonly stored = new Map<string, StoredReel>();
  /** One Page token per person and Page, as /me/accounts hands out the same one each time. */
  private readonly pageTokens = new Map<string, string>();
  private userCount = 0;

  constructor(private readonly now: () => number) {}

  /** `ids`: fixed user and Page ids (a demo that connects the same Pages on every start); new ones by default. */
  addUser(name: string, pageNames: string[], ids: { userId?: string; pageIds?: readonly string[] } = {}): { user: FakeFacebookUser; pages: FakePage[] } {
    this.userCount++;
    const user: FakeFacebookUser = { userId: ids.userId ?? numericId('1000', 15), name };
    this.users.set(user.userId, user);
    const pages = pageNames.map((pageName, index) => this.addPage(user.userId, pageName, undefined, ids.pageIds?.[index]));
    return { user, pages };
  }

  addPage(ownerUserId: string, name: string, tasks = ['ANALYZE', 'ADVERTISE', 'MODERATE', 'CREATE_CONTENT', 'MANAGE'], fixedId?: string): FakePage {
    const pageId = fixedId ?? numericId('1', 15);
    const page: FakePage = { pageId, name, ownerUserId, pictureUrl: `https://scontent.xx.fbcdn.example/v/t39.30808-1/${pageId}_n.jpg`, tasks };
    this.pages.set(pageId, page);
    return page;
  }

  pagesOf(userId: string): FakePage[] {
    return [...this.pages.values()].filter((page) => page.ownerUserId === userId);
  }

  // ---- OAuth -------------------------------------------------------------------------------

  issueCode(userId: string, scopes: string[], redirectUri: string): string {
    const code = `AQ${randomBytes(120).toString('base64url')}`;
    this.codes.set(code, { userId, scopes, redirectUri, expiresAt: this.now() + CODE_LIFETIME_MS, used: false });
    return code;
  }

  /** The code's grant, consuming it; Graph's refusal (code 100 and its subcode) otherwise. */
  redeemCode(code: string, redirectUri: string): AuthCode | { subcode: number | undefined; message: string } {
    const stored = this.codes.get(code);
    if (!stored) return { subcode: undefined, message: 'Invalid verification code format.' };
    if (stored.used) return { subcode: 36009, message: 'This authorization code has been used.' };
    if (stored.expiresAt <= this.now()) return { subcode: 36007, message: 'This authorization code has expired.' };
    if (stored.redirectUri !== redirectUri) {
      return { subcode: 36008, message: 'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request' };
    }
    stored.used = true;
    return stored;
  }

  issueUserToken(userId: string, scopes: string[], kind: 'short' | 'long'): { token: string; expiresIn: number } {
    const expiresIn = kind === 'short' ? SHORT_TOKEN_SECONDS : LONG_TOKEN_SECONDS;
    const value = token();
    this.tokens.set(value, { userId, scopes, kind, pageId: null, expiresAt: this.now() + expiresIn * 1000, revoked: false });
    return { token: value, expiresIn };
  }

  pageToken(userId: string, pageId: string, scopes: string[]): string {
    const key = `${userId}:${pageId}`;
    const existing = this.pageTokens.get(key);
    const stored = existing === undefined ? undefined : this.tokens.get(existing);
    if (existing && stored && !stored.revoked) return existing;
    const value = token();
    // Page tokens from a long-lived user token do not expire.
    this.tokens.set(value, { userId, scopes, kind: 'page', pageId, expiresAt: Number.POSITIVE_INFINITY, revoked: false });
    this.pageTokens.set(key, value);
    return value;
  }

  /** The token, or why Graph refuses it: 190 with Facebook's subcode. */
  checkToken(value: string | undefined): FakeToken | { subcode: number | null; message: string } {
    const stored = value === undefined ? undefined : this.tokens.get(value);
    if (!stored) return { subcode: null, message: 'Invalid OAuth access token - Cannot parse access token' };
    if (stored.revoked) return { subcode: 458, message: 'Error validating access token: The user has not authorized application.' };
    if (stored.expiresAt <= this.now()) return { subcode: 463, message: 'Error validating access token: Session has expired.' };
    return stored;
  }

  revoke(userId: string): void {
    for (const stored of this.tokens.values()) if (stored.userId === userId) stored.revoked = true;
  }

  /** User tokens expire (Page tokens made from a long-lived one do not). */
  expireUserTokens(userId?: string): void {
    for (const stored of this.tokens.values()) if (stored.kind !== 'page' && (userId === undefined || stored.userId === userId)) stored.expiresAt = 0;
  }

  // ---- Reels -----------------------------------------------------------------------------------

  startReel(pageId: string): FakeReel {
    const parts: Buffer[] = [];
    const reel: StoredReel = {
      videoId: numericId('9', 16),
      pageId,
      fileSize: null,
      received: 0,
      bytesReceived: 0,
      uploadRequests: 0,
      breaks: [],
      phase: 'uploading',
      description: null,
      videoState: null,
      processingPolls: 0,
      processingError: null,
      postId: null,
      publishedAt: null,
      views: 0,
      likes: 0,
      comments: 0,
      shares: 0,
      parts,
      bytes: () => Buffer.concat(parts),
    };
    this.reels.set(reel.videoId, reel);
    this.stored.set(reel.videoId, reel);
    return reel;
  }

  storedReel(videoId: string): StoredReel | undefined {
    return this.stored.get(videoId);
  }

  keep(reel: StoredReel, bytes: Buffer): void {
    reel.parts.push(bytes);
    reel.received += bytes.length;
    if (reel.fileSize !== null && reel.received === reel.fileSize) reel.phase = 'uploaded';
  }

  publish(reel: FakeReel): void {
    reel.phase = 'published';
    reel.postId = `${reel.pageId}_${reel.videoId}`;
    reel.publishedAt = this.now();
  }
}
