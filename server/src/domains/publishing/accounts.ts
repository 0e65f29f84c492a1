import { formatAccountHandle, PLATFORM_LABELS, platformAvatarUrl, type AccountPlatform, type CreatorOptions, type Streamer, type TikTokAccount } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import { recordLog } from '../logs/service.ts';
import { raiseEvent } from '../notifications/service.ts';
import type { Db, DbOrTrx } from '../../platform/db/database.ts';
import type { TikTokClient, TikTokTokens, TikTokUserInfo } from '../../engines/providers/tiktok/index.ts';
import { isTikTokError } from '../../engines/providers/tiktok/index.ts';
import { isYouTubeError, type YouTubeChannel, type YouTubeClient, type YouTubeTokens } from '../../engines/providers/youtube/index.ts';
import { decryptSecret, encryptSecret } from '../../platform/crypto.ts';
import { AppError, badGateway, notFound } from '../../platform/errors.ts';
import {
  deleteAccountRow,
  deleteLink,
  insertLink,
  reattachUploads,
  selectAccount,
  selectAccountByExternalId,
  selectAccountForUpdate,
  selectAccounts,
  selectLinkedAccounts,
  selectLinksOfAccounts,
  updateAccount,
  upsertAccountRow,
  type AccountRow,
} from './queries.ts';

export type { AccountRow };
type LinkedAccount = Streamer['tiktok_accounts'][number];

export const accountNotFound = () => notFound('Account not found');
export const TIKTOK_NOT_CONFIGURED = 'TikTok is not configured on this server (TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET)';

export function requireTikTok(deps: AppDeps): TikTokClient {
  if (!deps.tiktok) throw new AppError('SERVICE_UNAVAILABLE', TIKTOK_NOT_CONFIGURED);
  return deps.tiktok;
}

export const YOUTUBE_NOT_CONFIGURED = 'YouTube is not configured on this server (YOUTUBE_CLIENT_ID and YOUTUBE_CLIENT_SECRET)';

export function requireYouTube(deps: AppDeps): YouTubeClient {
  if (!deps.youtube) throw new AppError('SERVICE_UNAVAILABLE', YOUTUBE_NOT_CONFIGURED);
  return deps.youtube;
}

/** Google gave no refresh token and none is stored: posts scheduled for later could never get a token. */
const NO_REFRESH_TOKEN = 'Google did not grant offline access. Remove Clipshift from your Google account’s third-party access, then connect again.';

/** How an account is named to the user: "@username", else its display name. */
export const accountLabel = formatAccountHandle;
/** Refresh this long before the access token expires, so a long upload never starts on a dying token. */
const REFRESH_AHEAD_MS = 5 * 60_000;

/** An account as the user sees it, with the ids of the streamers linked to it (streamers, above, names them). */
type AccountView = Omit<TikTokAccount, 'linked_streamers'> & { platform: AccountPlatform; linked_streamer_ids: string[] };

/** The user's accounts (of one platform, or all), oldest first, each with its linked streamers' ids. */
export async function listAccounts(db: DbOrTrx, userId: string, platform?: AccountPlatform): Promise<AccountView[]> {
  const accounts = await selectAccounts(db, userId, platform);
  const links = accounts.length ? await selectLinksOfAccounts(db, accounts.map((account) => account.id)) : [];
  return accounts.map((account) => ({
    ...account,
    // Rows stored before avatars were checked may hold any URL: checked again on the way out.
    avatar_url: platformAvatarUrl(account.platform, account.avatar_url),
    created_at: account.created_at.toISOString(),
    linked_streamer_ids: links.filter((link) => link.account_id === account.id).map((link) => link.streamer_id),
  }));
}

/** Ids of the streamers linked to the user's account. */
export async function linkedStreamerIds(db: DbOrTrx, userId: string, accountId: string | null): Promise<string[]> {
  const account = await findAccount(db, userId, accountId);
  return (await selectLinksOfAccounts(db, [account.id])).map((link) => link.streamer_id);
}

/** The caller's account; a null id (text that cannot be a UUID, see rowId) is missing like any other. */
export async function findAccount(db: DbOrTrx, userId: string, accountId: string | null): Promise<AccountRow> {
  if (accountId === null) throw accountNotFound();
  const row = await selectAccount(db, userId, accountId);
  if (!row) throw accountNotFound();
  return row;
}

/** Linked accounts of several streamers at once, for the Streamer objects. */
export async function linkedAccountsByStreamer(db: DbOrTrx, streamerIds: readonly string[]): Promise<Map<string, LinkedAccount[]>> {
  const map = new Map<string, LinkedAccount[]>();
  if (!streamerIds.length) return map;
  for (const row of await selectLinkedAccounts(db, streamerIds)) {
    const list = map.get(row.streamer_id) ?? [];
    list.push({ id: row.id, display_name: row.display_name, username: row.username, avatar_url: platformAvatarUrl(row.platform, row.avatar_url) });
    map.set(row.streamer_id, list);
  }
  return map;
}

function tokenColumns(tokens: TikTokTokens, appSecret: string, now: number) {
  return {
    access_token_enc: encryptSecret(tokens.accessToken, appSecret),
    refresh_token_enc: encryptSecret(tokens.refreshToken, appSecret),
    access_expires_at: new Date(now + tokens.expiresIn * 1000),
    refresh_expires_at: tokens.refreshExpiresIn ? new Date(now + tokens.refreshExpiresIn * 1000) : null,
    scope: tokens.scope,
  };
}

/** Stores a connected account for its owner; the same open_id again updates the existing row. */
export async function upsertAccount(
  db: DbOrTrx,
  appSecret: string,
  input: { userId: string; via: 'owner' | 'guest'; tokens: TikTokTokens; info: TikTokUserInfo },
  now = Date.now(),
): Promise<AccountRow> {
  const profile = {
    union_id: input.info.unionId ?? null,
    display_name: input.info.displayName || input.info.username || 'TikTok account',
    username: input.info.username ?? null,
    avatar_url: platformAvatarUrl('tiktok', input.info.avatarUrl),
  };
  const tokens = tokenColumns(input.tokens, appSecret, now);
  const account = await upsertAccountRow(
    db,
    { user_id: input.userId, open_id: input.info.openId || input.tokens.openId, connected_via: input.via, ...profile, ...tokens },
    { ...profile, ...tokens, needs_reconnect: false, updated_at: new Date(now) },
  );
  // The same TikTok account removed and connected again: its post history is its own again.
  await reattachUploads(db, account);
  return account;
}

/**
 * Stores a connected YouTube channel for its owner: open_id is the channel id, the name its title,
 * the username its handle without "@". Google does not rotate refresh tokens and sends one only on
 * a consent: a reconnection without one keeps the stored one.
 */
export async function upsertYouTubeAccount(
  db: DbOrTrx,
  appSecret: string,
  input: { userId: string; via: 'owner' | 'guest'; tokens: YouTubeTokens; channel: YouTubeChannel },
  now = Date.now(),
): Promise<AccountRow> {
  const { tokens, channel } = input;
  if (!tokens.refreshToken && !(await selectAccountByExternalId(db, input.userId, 'youtube', channel.channelId))) throw new Error(NO_REFRESH_TOKEN);
  const profile = {
    union_id: null,
    display_name: channel.title || channel.handle || 'YouTube channel',
    username: channel.handle ? channel.handle.replace(/^@/, '') : null,
    avatar_url: platformAvatarUrl('youtube', channel.avatarUrl),
  };
  const access = {
    access_token_enc: encryptSecret(tokens.accessToken, appSecret),
    access_expires_at: tokens.expiresAt,
    refresh_expires_at: null,
    scope: tokens.scope,
  };
  const refresh = tokens.refreshToken ? { refresh_token_enc: encryptSecret(tokens.refreshToken, appSecret) } : {};
  const account = await upsertAccountRow(
    db,
    { user_id: input.userId, platform: 'youtube', open_id: channel.channelId, connected_via: input.via, ...profile, ...access, refresh_token_enc: refresh.refresh_token_enc ?? '' },
    { ...profile, ...access, ...refresh, needs_reconnect: false, updated_at: new Date(now) },
  );
  await reattachUploads(db, account);
  return account;
}

export class ReconnectRequired extends Error {
  override name = 'ReconnectRequired';
}

export const ACCOUNT_REMOVED = 'The TikTok account was removed before the clip was posted';
export const YOUTUBE_ACCOUNT_REMOVED = 'The YouTube account was removed before the clip was posted';

interface TokenOptions {
  force?: boolean;
  signal?: AbortSignal;
}

/** How one platform refreshes: the new access token and the columns to store, and whether an error means the grant is dead. */
interface Refresher {
  removed: string;
  refresh(refreshToken: string, now: number, signal?: AbortSignal): Promise<{ token: string; columns: Parameters<typeof updateAccount>[2] }>;
  grantDead(error: unknown): boolean;
}

/**
 * A valid access token for the account, refreshed ahead of expiry. The row lock makes two
 * concurrent refreshes impossible: TikTok rotates refresh tokens, so the loser would be locked out.
 * A refused refresh marks the account as needing reconnection and tells the user once.
 */
async function refreshedToken(db: Db, appSecret: string, accountId: string, refresher: Refresher, options: TokenOptions): Promise<string> {
  const outcome = await db.transaction().execute(async (trx) => {
    const account = await selectAccountForUpdate(trx, accountId);
    if (!account) throw new Error(refresher.removed);
    const refused = { reconnect: account.display_name, platform: account.platform, token: undefined, userId: account.user_id };
    if (account.needs_reconnect) return { ...refused, newly: false };
    const now = Date.now();
    if (!options.force && account.access_expires_at.getTime() - now > REFRESH_AHEAD_MS) return { token: decryptSecret(account.access_token_enc, appSecret), reconnect: undefined };
    try {
      const refreshed = await refresher.refresh(decryptSecret(account.refresh_token_enc, appSecret), now, options.signal);
      await updateAccount(trx, accountId, { ...refreshed.columns, updated_at: new Date(now) });
      return { token: refreshed.token, reconnect: undefined };
    } catch (error) {
      if (refresher.grantDead(error)) return { ...refused, newly: true };
      throw error;
    }
  });
  if (outcome.token !== undefined) return outcome.token;
  await db.transaction().execute(async (trx) => {
    await updateAccount(trx, accountId, { needs_reconnect: true, updated_at: new Date() });
    // Told once, when the platform first refuses the account, not at every post that finds it still refused.
    if (outcome.newly) await raiseEvent(trx, outcome.userId, 'account.reconnect', { account_id: accountId, account: outcome.reconnect, platform: outcome.platform });
  });
  throw new ReconnectRequired(`The ${PLATFORM_LABELS[outcome.platform]} connection of ${outcome.reconnect} has expired: reconnect the account in Settings`);
}

/** A valid TikTok access token for the account (TikTok rotates the refresh token on every refresh). */
export function freshAccessToken(db: Db, tiktok: TikTokClient, appSecret: string, accountId: string, options: TokenOptions = {}): Promise<string> {
  return refreshedToken(db, appSecret, accountId, {
    removed: ACCOUNT_REMOVED,
    refresh: async (refreshToken, now, signal) => {
      const tokens = await tiktok.refreshToken(refreshToken, signal);
      return { token: tokens.accessToken, columns: tokenColumns(tokens, appSecret, now) };
    },
    grantDead: (error) => isTikTokError(error) && (error.kind === 'reconnect_required' || error.kind === 'token_invalid'),
  }, options);
}

/** A valid YouTube access token for the account; Google keeps the refresh token, so the stored one stays. */
export function freshYouTubeToken(db: Db, youtube: YouTubeClient, appSecret: string, accountId: string, options: TokenOptions = {}): Promise<string> {
  return refreshedToken(db, appSecret, accountId, {
    removed: YOUTUBE_ACCOUNT_REMOVED,
    refresh: async (refreshToken, _now, signal) => {
      const tokens = await youtube.refreshToken(refreshToken, signal);
      const rotated = tokens.refreshToken ? { refresh_token_enc: encryptSecret(tokens.refreshToken, appSecret) } : {};
      return {
        token: tokens.accessToken,
        columns: { access_token_enc: encryptSecret(tokens.accessToken, appSecret), access_expires_at: tokens.expiresAt, ...rotated, ...(tokens.scope ? { scope: tokens.scope } : {}) },
      };
    },
    grantDead: (error) => isYouTubeError(error, 'reconnect_required'),
  }, options);
}

export async function linkAccount(db: DbOrTrx, streamerId: string, accountId: string): Promise<void> {
  await insertLink(db, streamerId, accountId);
}

export async function unlinkAccount(db: DbOrTrx, streamerId: string, accountId: string): Promise<void> {
  await deleteLink(db, streamerId, accountId);
}

/** Removes the user's account; its uploads keep the name it had (see upsertAccount for a return). */
export async function removeAccount(deps: AppDeps, userId: string, accountId: string | null): Promise<void> {
  const account = await findAccount(deps.db, userId, accountId);
  // Revoking is a courtesy to the user's TikTok security page: the account goes either way.
  if (deps.tiktok && account.platform === 'tiktok') {
    await deps.tiktok.revokeToken(decryptSecret(account.access_token_enc, deps.appSecret)).catch((error: unknown) => {
      deps.logger.warn({ err: error }, 'TikTok token revocation failed');
    });
  }
  await deleteAccountRow(deps.db, account.id);
  await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'tiktok', message: `Removed ${PLATFORM_LABELS[account.platform]} account ${formatAccountHandle(account)}`, userId });
}

/** What TikTok lets this account post with right now: privacy levels, interaction flags, max duration. */
export async function creatorOptionsFor(deps: AppDeps, userId: string, accountId: string | null): Promise<CreatorOptions> {
  const tiktok = requireTikTok(deps);
  const account = await findAccount(deps.db, userId, accountId);
  try {
    const token = await freshAccessToken(deps.db, tiktok, deps.appSecret, account.id);
    const info = await tiktok.queryCreatorInfo(token);
    return {
      tiktok_account_id: account.id,
      privacy_level_options: info.privacyLevelOptions,
      comment_disabled: info.commentDisabled,
      duet_disabled: info.duetDisabled,
      stitch_disabled: info.stitchDisabled,
      max_video_post_duration_sec: info.maxVideoPostDurationSec,
      nickname: info.nickname ?? null,
    };
  } catch (error) {
    throw badGateway((error as Error).message, error);
  }
}
