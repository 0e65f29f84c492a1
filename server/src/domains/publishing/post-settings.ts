import { PRIVACY_LEVELS, type AccountPostSettings, type PrivacyLevel, type SaveAccountPostSettingsInput } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { accountLabel, findAccount } from './accounts.ts';
import { selectAccountPostSettings, selectPostSettingsOf, upsertPostSettings } from './queries.ts';

/** What an unattended post to one account goes out with. */
export interface PostChoice {
  privacyLevel: PrivacyLevel;
  disableComment: boolean;
  disableDuet: boolean;
  disableStitch: boolean;
}

const isPrivacyLevel = (value: string): value is PrivacyLevel => (PRIVACY_LEVELS as readonly string[]).includes(value);

/** The user's accounts, oldest first, each with the choices made for its unattended posts. */
export async function listAccountPostSettings(db: DbOrTrx, userId: string): Promise<AccountPostSettings[]> {
  const rows = await selectAccountPostSettings(db, userId);
  return rows.map((row) => ({
    tiktok_account_id: row.id,
    account: accountLabel(row),
    privacy_level: row.privacy_level !== null && isPrivacyLevel(row.privacy_level) ? row.privacy_level : null,
    disable_comment: row.disable_comment ?? false,
    disable_duet: row.disable_duet ?? false,
    disable_stitch: row.disable_stitch ?? false,
  }));
}

/** Saves the privacy and interaction choices of one of the user's accounts. */
export async function saveAccountPostSettings(db: DbOrTrx, userId: string, input: Omit<SaveAccountPostSettingsInput, 'id'> & { id: string | null }): Promise<AccountPostSettings> {
  const account = await findAccount(db, userId, input.id);
  await upsertPostSettings(db, {
    tiktok_account_id: account.id,
    privacy_level: input.privacy_level,
    disable_comment: input.disable_comment ?? false,
    disable_duet: input.disable_duet ?? false,
    disable_stitch: input.disable_stitch ?? false,
  });
  const saved = (await listAccountPostSettings(db, userId)).find((row) => row.tiktok_account_id === account.id);
  if (!saved) throw new Error('The account vanished while its post settings were saved');
  return saved;
}

/** The choices made for these accounts, by account id; an account without one is missing. */
export async function postChoices(db: DbOrTrx, accountIds: readonly string[]): Promise<Map<string, PostChoice>> {
  const map = new Map<string, PostChoice>();
  if (!accountIds.length) return map;
  for (const row of await selectPostSettingsOf(db, accountIds)) {
    if (!isPrivacyLevel(row.privacy_level)) continue;
    map.set(row.tiktok_account_id, {
      privacyLevel: row.privacy_level,
      disableComment: row.disable_comment,
      disableDuet: row.disable_duet,
      disableStitch: row.disable_stitch,
    });
  }
  return map;
}
