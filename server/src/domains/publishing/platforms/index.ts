import type { AccountPlatform } from '../../../platform/db/schema.ts';
import type { PlatformAdapter } from './adapter.ts';
import { facebookPlatform } from './facebook.ts';
import { instagramPlatform } from './instagram.ts';
import { tiktokPlatform } from './tiktok.ts';
import { youtubePlatform } from './youtube.ts';

export type { AccountToken, Grant, Owner, PlatformAdapter, PostOutcome } from './adapter.ts';

/**
 * Every platform's adapter: a new platform is one file beside these and one case here. Looked up
 * when asked rather than gathered into an object when this module loads: the adapters import
 * modules that import this one, and a test (or an entry point) that loads an adapter first would
 * otherwise find the object built before that adapter existed.
 */
export function platformOf(platform: AccountPlatform): PlatformAdapter {
  switch (platform) {
    case 'tiktok':
      return tiktokPlatform;
    case 'youtube':
      return youtubePlatform;
    case 'instagram':
      return instagramPlatform;
    case 'facebook':
      return facebookPlatform;
  }
}
