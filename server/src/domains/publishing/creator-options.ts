import type { CreatorOptions } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import { badGateway } from '../../platform/errors.ts';
import { findAccount } from './accounts.ts';
import { requireTikTok, tiktokPlatform } from './platforms/tiktok.ts';
import { accountToken } from './tokens.ts';

/** What TikTok lets this account post with right now: privacy levels, interaction flags, max duration. */
export async function creatorOptionsFor(deps: AppDeps, userId: string, accountId: string | null): Promise<CreatorOptions> {
  const tiktok = requireTikTok(deps);
  const account = await findAccount(deps.db, userId, accountId);
  try {
    const token = await accountToken(deps, tiktokPlatform, account.id);
    const info = await token.use((accessToken) => tiktok.queryCreatorInfo(accessToken));
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
