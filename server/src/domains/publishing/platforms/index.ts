import type { AccountPlatform } from '../../../platform/db/schema.ts';
import type { PlatformAdapter } from './adapter.ts';
import { facebookPlatform } from './facebook.ts';
import { instagramPlatform } from './instagram.ts';
import { tiktokPlatform } from './tiktok.ts';
import { youtubePlatform } from './youtube.ts';

export type { AccountToken, Grant, Owner, PlatformAdapter, PostOutcome } from './adapter.ts';

/** Every platform's adapter: a new platform is one file beside these and one line here. */
export const PLATFORMS: Readonly<Record<AccountPlatform, PlatformAdapter>> = {
  tiktok: tiktokPlatform,
  youtube: youtubePlatform,
  instagram: instagramPlatform,
  facebook: facebookPlatform,
};

export const platformOf = (platform: AccountPlatform): PlatformAdapter => PLATFORMS[platform];
