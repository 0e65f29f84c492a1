import { formatAccountHandle, PLATFORM_LABELS, platformAvatarUrl, type AccountPlatform, type Streamer, type TikTokAccount } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import { recordLog } from '../logs/service.ts';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { decryptSecret } from '../../platform/crypto.ts';
import { notFound } from '../../platform/errors.ts';
import { platformOf } from './platforms/index.ts';
import { deleteAccountRow, deleteLink, insertLink, selectAccount, selectAccounts, selectLinkedAccounts, selectLinksOfAccounts, type AccountRow } from './queries.ts';

export type { AccountRow };
type LinkedAccount = Streamer['tiktok_accounts'][number];

export const accountNotFound = () => notFound('Account not found');

/** How an account is named to the user: "@username", else its display name. */
export const accountLabel = formatAccountHandle;

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
    list.push({ id: row.id, platform: row.platform, display_name: row.display_name, username: row.username, avatar_url: platformAvatarUrl(row.platform, row.avatar_url) });
    map.set(row.streamer_id, list);
  }
  return map;
}

/**
 * The platforms the streamer's clips go to (its linked accounts'), oldest link first, each once:
 * their reach tags are what a new clip's descriptions carry. None without a streamer.
 */
export async function linkedPlatforms(db: DbOrTrx, streamerId: string | null): Promise<AccountPlatform[]> {
  if (!streamerId) return [];
  const rows = await selectLinkedAccounts(db, [streamerId]);
  return [...new Set(rows.map((row) => row.platform))];
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
  // Revoking is a courtesy to the user's security page on the platform: the account goes either way.
  const platform = platformOf(account.platform);
  if (platform.revoke && !platform.configurationProblem(deps)) {
    await platform.revoke(deps, decryptSecret(account.access_token_enc, deps.appSecret)).catch((error: unknown) => {
      deps.logger.warn({ err: error, platform: account.platform }, 'token revocation failed');
    });
  }
  await deleteAccountRow(deps.db, account.id);
  await recordLog(deps.db, deps.logger, { level: 'INFO', logger: account.platform, message: `Removed ${PLATFORM_LABELS[account.platform]} account ${formatAccountHandle(account)}`, userId });
}
