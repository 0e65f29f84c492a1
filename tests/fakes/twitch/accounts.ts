import { randomBytes } from 'node:crypto';

/*
 * The fake's user accounts (decision 0047): what id.twitch.tv's authorization code flow hands out
 * (codes, user access tokens, rotating refresh tokens, with their scopes), who edits which channel,
 * which channels are live and which VODs exist. Kept apart from the catalogue in state.ts.
 */

export interface UserGrant {
  userId: string;
  login: string;
  scopes: string[];
}

export interface AuthorizingUser {
  login: string;
  /** What the user grants (default: every scope asked for). */
  scopes?: string[];
  /** The user clicks "Cancel": the redirect carries error=access_denied. */
  deny?: boolean;
}

export class FakeTwitchAccounts {
  /** code → grant and the redirect_uri it was issued for; single use. */
  readonly codes = new Map<string, UserGrant & { redirectUri: string }>();
  /** user access token → grant (its expiry lives in FakeTwitchState.tokens, like app tokens). */
  readonly accessTokens = new Map<string, UserGrant>();
  readonly refreshTokens = new Map<string, UserGrant>();
  /** broadcaster id → user ids of its editors. */
  readonly editors = new Map<string, Set<string>>();
  /** Broadcaster ids live now. */
  readonly live = new Set<string>();
  /** VOD id → broadcaster id. */
  readonly videos = new Map<string, string>();
  /** The stream each live broadcaster runs (Get Streams), by broadcaster id. */
  readonly streams = new Map<string, { id: string; started_at: string; title: string }>();
  /** The stream each VOD recorded (Get Videos' stream_id), by video id. */
  readonly videoStreams = new Map<string, string>();
  /** Who signs in at the authorize page next. */
  authorizing: AuthorizingUser | null = null;

  issueCode(grant: UserGrant, redirectUri: string): string {
    const code = randomBytes(15).toString('hex');
    this.codes.set(code, { ...grant, redirectUri });
    return code;
  }

  issueRefreshToken(grant: UserGrant): string {
    const token = randomBytes(25).toString('hex');
    this.refreshTokens.set(token, grant);
    return token;
  }

  /** Everything Twitch handed out for this user stops working (the user disconnected the app at Twitch). */
  revokeUser(userId: string, expire: (token: string) => void): void {
    for (const [token, grant] of this.refreshTokens) if (grant.userId === userId) this.refreshTokens.delete(token);
    for (const [token, grant] of this.accessTokens) if (grant.userId === userId) expire(token);
  }

  mayEdit(userId: string, broadcasterId: string): boolean {
    return userId === broadcasterId || (this.editors.get(broadcasterId)?.has(userId) ?? false);
  }
}
