import { isYouTubePrivacy, PRIVACY_LEVELS, YOUTUBE_PRIVACY_NEEDED, type AccountPostSettings, type PrivacyLevel, type SaveAccountPostSettingsInput } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { badRequest } from '../../platform/errors.ts';
import { accountLabel, findAccount } from './accounts.ts';
import { selectAccountPostSettings, selectPostSettingsOf, upsertPostSettings } from './queries.ts';

/** What an unattended post to one account goes out with (a YouTube account's interactions are always false). */
export interface PostChoice {
  /** A TikTok privacy level, or a YouTube privacy status, as fits the account's platform. */
  privacyLevel: string;
  disableComment: boolean;
  disableDuet: boolean;
  disableStitch: boolean;
  /** YouTube's notifySubscribers (false for TikTok). */
  youtubeNotifySubscribers: boolean;
}

const isPrivacyLevel = (value: string): value is PrivacyLevel => (PRIVACY_LEVELS as readonly string[]).includes(value);
const isAccountPrivacy = (value: string) => isPrivacyLevel(value) || isYouTubePrivacy(value);

/** The user's accounts, oldest first, each with the choices made for its unattended posts. */
export async function listAccountPostSettings(db: DbOrTrx, userId: string): Promise<AccountPostSettings[]> {
  const rows = await selectAccountPostSettings(db, userId);
  return rows.map((row) => ({
    tiktok_account_id: row.id,
    account: accountLabel(row),
    platform: row.platform,
    privacy_level: row.platform === 'tiktok' && row.privacy_level !== null && isPrivacyLevel(row.privacy_level) ? row.privacy_level : null,
    youtube_privacy: row.platform === 'youtube' && row.privacy_level !== null && isYouTubePrivacy(row.privacy_level) ? row.privacy_level : null,
    youtube_notify_subscribers: row.platform === 'youtube' && (row.youtube_notify_subscribers ?? false),
    disable_comment: row.disable_comment ?? false,
    disable_duet: row.disable_duet ?? false,
    disable_stitch: row.disable_stitch ?? false,
  }));
}

/**
 * Saves the privacy and interaction choices of one of the user's accounts: privacy_level for a
 * TikTok account, youtube_privacy for a YouTube one (stored in the same column).
 */
export async function saveAccountPostSettings(db: DbOrTrx, userId: string, input: Omit<SaveAccountPostSettingsInput, 'id'> & { id: string | null }): Promise<AccountPostSettings> {
  const account = await findAccount(db, userId, input.id);
  const youtube = account.platform === 'youtube';
  const privacy = youtube ? input.youtube_privacy : input.privacy_level;
  if (!privacy) throw badRequest(youtube ? YOUTUBE_PRIVACY_NEEDED : `privacy_level must be one of ${PRIVACY_LEVELS.join(', ')}`);
  await upsertPostSettings(db, {
    account_id: account.id,
    privacy_level: privacy,
    // Comments, duets and stitches are TikTok's choices.
    disable_comment: !youtube && (input.disable_comment ?? false),
    disable_duet: !youtube && (input.disable_duet ?? false),
    disable_stitch: !youtube && (input.disable_stitch ?? false),
    youtube_notify_subscribers: youtube && (input.youtube_notify_subscribers ?? false),
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
    if (!isAccountPrivacy(row.privacy_level)) continue;
    map.set(row.account_id, {
      privacyLevel: row.privacy_level,
      disableComment: row.disable_comment,
      disableDuet: row.disable_duet,
      disableStitch: row.disable_stitch,
      youtubeNotifySubscribers: row.youtube_notify_subscribers,
    });
  }
  return map;
}
