import type { AccountPlatform } from './accounts.ts';

/**
 * Where each platform serves profile pictures from, in CSP host-source form (`*.` takes any
 * subdomain). A provider's avatar URL elsewhere (a tracking pixel, anybody's server) is never shown:
 * the server drops it and the page's Content-Security-Policy allows images from these hosts only.
 * TikTok's CDN hosts are numbered per region (p16-sign-va.tiktokcdn.com, p19-sign.tiktokcdn-us.com);
 * YouTube channel pictures come from yt3; Instagram's and Facebook Pages' from Meta's CDNs
 * (scontent-*.cdninstagram.com, scontent-*.xx.fbcdn.net).
 */
export const AVATAR_HOSTS: Record<AccountPlatform, readonly string[]> = {
  tiktok: ['*.tiktokcdn.com', '*.tiktokcdn-us.com', '*.tiktokcdn-eu.com'],
  youtube: ['yt3.ggpht.com', 'yt3.googleusercontent.com'],
  instagram: ['*.cdninstagram.com', '*.fbcdn.net'],
  facebook: ['*.fbcdn.net', 'platform-lookaside.fbsbx.com'],
};

/** Longer URLs are no profile picture of theirs (TikTok's signed ones are about 300 characters). */
const MAX_AVATAR_URL_LENGTH = 2048;

function hostMatches(pattern: string, hostname: string): boolean {
  return pattern.startsWith('*.') ? hostname.endsWith(pattern.slice(1)) : hostname === pattern;
}

function parsedUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** The avatar URL when it is https on one of the platform's picture hosts (no credentials, no port), else null. */
export function platformAvatarUrl(platform: AccountPlatform, url: string | null | undefined): string | null {
  if (!url || url.length > MAX_AVATAR_URL_LENGTH) return null;
  const parsed = parsedUrl(url);
  if (!parsed || parsed.protocol !== 'https:' || parsed.username || parsed.password || parsed.port) return null;
  return AVATAR_HOSTS[platform].some((pattern) => hostMatches(pattern, parsed.hostname)) ? url : null;
}
