import { randomBytes, randomInt } from 'node:crypto';

/*
 * What the fake Instagram remembers: professional accounts, codes and tokens, Reel containers (with
 * what their video URL really answered), published media with their counts, and each account's
 * publishes for the content publishing limit. Written independently of the real client on purpose,
 * so a shared misunderstanding of Meta's rules cannot hide a bug.
 */

export const BASIC_SCOPE = 'instagram_business_basic';
export const PUBLISH_SCOPE = 'instagram_business_content_publish';
export const KNOWN_SCOPES = [BASIC_SCOPE, PUBLISH_SCOPE, 'instagram_business_manage_comments', 'instagram_business_manage_messages', 'instagram_business_manage_insights'];
export const DEFAULT_PUBLISH_QUOTA = 100;
export const QUOTA_WINDOW_SECONDS = 86_400;
export const SHORT_TOKEN_SECONDS = 3_600;
/** Long-lived tokens: 60 days, less the few minutes Instagram takes off. */
export const LONG_TOKEN_SECONDS = 5_183_944;
const CODE_LIFETIME_MS = 10 * 60_000;
const CONTAINER_LIFETIME_MS = 24 * 3_600_000;

export interface FakeInstagramUser {
  /** The professional account's id (IG_ID): /me's user_id, what /{ig-user-id}/media takes. */
  userId: string;
  /** The app-scoped id: the code exchange's user_id and /me's id. Above 2^53, as Instagram's are. */
  scopedId: string;
  username: string;
  name: string;
  avatarUrl: string;
}

export interface AddInstagramUserInput {
  username: string;
  name?: string;
  /** A fixed professional-account id (a demo that connects the same account on every start); a new one by default. */
  userId?: string;
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
  kind: 'short' | 'long';
  expiresAt: number;
  /** The person removed the app: Graph answers 190/458. */
  revoked: boolean;
}

export type ContainerStatusCode = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';

/** What the video URL answered when the fake downloaded it, as Instagram's crawler would. */
export interface VideoFetch {
  url: string;
  /** HTTP status; null when no answer came. */
  status: number | null;
  contentType: string | null;
  bytes: Buffer;
  /** The network error, when no answer came. */
  error: string | null;
}

export interface FakeContainer {
  id: string;
  userId: string;
  videoUrl: string;
  caption: string;
  shareToFeed: boolean;
  collaborators: string[];
  trialParams: Record<string, unknown> | null;
  statusCode: ContainerStatusCode;
  /** Why an ERROR container failed (2207052 download failed, 2207026 not a usable video). */
  errorSubcode: number | null;
  fetch: VideoFetch | null;
  /** Status reads since the download finished. */
  polls: number;
  expiresAt: number;
  mediaId: string | null;
}

export interface FakeMedia {
  id: string;
  userId: string;
  containerId: string;
  caption: string;
  shareToFeed: boolean;
  collaborators: string[];
  trial: boolean;
  videoBytes: Buffer;
  publishedAt: number;
  views: number;
  likes: number;
  comments: number;
  shares: number;
}

/** Graph ids are decimal strings; these stay clear of Number's exact range, as Instagram's do. */
export function graphId(prefix: string, length = 17): string {
  let digits = prefix;
  while (digits.length < length) digits += String(randomInt(0, 10));
  return digits;
}

function token(prefix: string): string {
  return `${prefix}${randomBytes(48).toString('base64url')}`;
}

export class FakeInstagramState {
  readonly users = new Map<string, FakeInstagramUser>();
  readonly codes = new Map<string, AuthCode>();
  readonly tokens = new Map<string, FakeToken>();
  readonly containers = new Map<string, FakeContainer>();
  readonly media = new Map<string, FakeMedia>();
  /** Publish times per professional account id, for the moving 24-hour window. */
  private readonly publishes = new Map<string, number[]>();
  private userCount = 0;

  publishQuota = DEFAULT_PUBLISH_QUOTA;

  constructor(private readonly now: () => number) {}

  addUser(input: AddInstagramUserInput): FakeInstagramUser {
    this.userCount++;
    const userId = input.userId ?? graphId('178414');
    const user: FakeInstagramUser = {
      userId,
      scopedId: graphId('27'),
      username: input.username,
      name: input.name ?? input.username,
      avatarUrl: `https://scontent.cdninstagram.example/v/t51.2885-19/${userId}_n.jpg`,
    };
    this.users.set(userId, user);
    return user;
  }

  userByAnyId(id: string): FakeInstagramUser | undefined {
    return this.users.get(id) ?? [...this.users.values()].find((user) => user.scopedId === id);
  }

  // ---- OAuth -------------------------------------------------------------------------------

  issueCode(userId: string, scopes: string[], redirectUri: string): string {
    const code = `AQ${randomBytes(90).toString('base64url')}`;
    this.codes.set(code, { userId, scopes, redirectUri, expiresAt: this.now() + CODE_LIFETIME_MS, used: false });
    return code;
  }

  /** The code's grant, consuming it; Instagram's words for a refusal otherwise. */
  redeemCode(code: string, redirectUri: string): AuthCode | { error: string } {
    const stored = this.codes.get(code);
    if (!stored || stored.expiresAt <= this.now()) return { error: 'Invalid authorization code' };
    if (stored.used) return { error: 'This authorization code has been used' };
    if (stored.redirectUri !== redirectUri) return { error: 'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request' };
    stored.used = true;
    return stored;
  }

  issueToken(userId: string, scopes: string[], kind: FakeToken['kind']): { token: string; expiresIn: number } {
    const expiresIn = kind === 'short' ? SHORT_TOKEN_SECONDS : LONG_TOKEN_SECONDS;
    const value = token(kind === 'short' ? 'IGAAS' : 'IGAAL');
    this.tokens.set(value, { userId, scopes, kind, expiresAt: this.now() + expiresIn * 1000, revoked: false });
    return { token: value, expiresIn };
  }

  /** The token, or why Graph refuses it: 190 with Instagram's subcode. */
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

  expireTokens(userId?: string): void {
    for (const stored of this.tokens.values()) if (userId === undefined || stored.userId === userId) stored.expiresAt = 0;
  }

  // ---- Containers ------------------------------------------------------------------------------

  createContainer(input: Omit<FakeContainer, 'id' | 'statusCode' | 'errorSubcode' | 'fetch' | 'polls' | 'expiresAt' | 'mediaId'>): FakeContainer {
    const container: FakeContainer = { ...input, id: graphId('179'), statusCode: 'IN_PROGRESS', errorSubcode: null, fetch: null, polls: 0, expiresAt: this.now() + CONTAINER_LIFETIME_MS, mediaId: null };
    this.containers.set(container.id, container);
    return container;
  }

  /** Containers not published within a day expire. */
  refresh(container: FakeContainer): FakeContainer {
    if (container.statusCode !== 'PUBLISHED' && container.statusCode !== 'EXPIRED' && container.expiresAt <= this.now()) container.statusCode = 'EXPIRED';
    return container;
  }

  // ---- Publishing ------------------------------------------------------------------------------

  publishesInWindow(userId: string): number {
    const since = this.now() - QUOTA_WINDOW_SECONDS * 1000;
    const times = (this.publishes.get(userId) ?? []).filter((at) => at > since);
    this.publishes.set(userId, times);
    return times.length;
  }

  publish(container: FakeContainer): FakeMedia {
    const media: FakeMedia = {
      id: graphId('180'),
      userId: container.userId,
      containerId: container.id,
      caption: container.caption,
      shareToFeed: container.shareToFeed,
      collaborators: container.collaborators,
      trial: container.trialParams !== null,
      videoBytes: container.fetch?.bytes ?? Buffer.alloc(0),
      publishedAt: this.now(),
      views: 0,
      likes: 0,
      comments: 0,
      shares: 0,
    };
    this.media.set(media.id, media);
    container.statusCode = 'PUBLISHED';
    container.mediaId = media.id;
    this.publishes.set(container.userId, [...(this.publishes.get(container.userId) ?? []), this.now()]);
    return media;
  }

  forgetPublishes(): void {
    this.publishes.clear();
  }
}
