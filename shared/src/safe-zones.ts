import { z } from 'zod';

/*
 * Where each platform draws its own interface over a 9:16 video: the column of buttons on the right
 * (like, comment, share, avatar, sound) and the bottom area (user name, the post's caption, sound,
 * subscribe button), plus the tabs or search bar along the top. Captions, titles and logos placed
 * here are hidden behind that interface on the viewer's phone.
 *
 * Rectangles are fractions of the frame (x, y from the top left). Values come from the platforms'
 * safe-zone overlays as designers publish them for 1080x1920 (TikTok Creative Center's in-feed
 * overlay, YouTube's Shorts overlay, Meta's Reels guidance), measured on organic posts, not ads:
 * - TikTok: tabs over the top 150 px; a button column about 140 px wide from 38 % of the height
 *   down to 88 %; user name, caption and sound over the bottom 385 px (80 % down).
 * - YouTube Shorts: search and camera over the top 120 px; a button column about 150 px wide from
 *   45 % down to 88 %; title, channel and subscribe over the bottom 400 px (79 % down).
 * - Instagram Reels: the "Reels" header over the top 130 px; a button column about 130 px wide
 *   from 50 % down to 90 %; user name, caption and audio over the bottom 385 px (80 % down).
 * Interfaces differ by device and app version: these are the common layout of 2024-25 apps, the
 * areas the platforms' own overlays tell creators to keep clear.
 */

/** A rectangle as fractions of a frame (0..1), x and y from its top left corner. */
export interface ZoneRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export const SAFE_ZONE_PLATFORMS = ['tiktok', 'youtube', 'instagram'] as const;
export type SafeZonePlatform = (typeof SAFE_ZONE_PLATFORMS)[number];

/** `all` keeps clear of every platform's interface (their union); `none` of nothing. */
export const SAFE_ZONES = ['all', 'tiktok', 'youtube', 'instagram', 'none'] as const;
export type SafeZone = (typeof SAFE_ZONES)[number];
export const SAFE_ZONE_LABELS: Record<SafeZone, string> = {
  all: 'All platforms',
  tiktok: 'TikTok',
  youtube: 'YouTube Shorts',
  instagram: 'Instagram Reels',
  none: 'None',
};
export const safeZoneSchema = z.enum(SAFE_ZONES, { error: 'safe_zone must be all, tiktok, youtube, instagram or none' });

/** Each platform's interface over a 9:16 frame: top bar, button column, bottom caption area. */
export const PLATFORM_UI_ZONES: Readonly<Record<SafeZonePlatform, readonly ZoneRect[]>> = {
  tiktok: [
    { x: 0, y: 0, w: 1, h: 0.078 },
    { x: 0.87, y: 0.38, w: 0.13, h: 0.5 },
    { x: 0, y: 0.8, w: 1, h: 0.2 },
  ],
  youtube: [
    { x: 0, y: 0, w: 1, h: 0.0625 },
    { x: 0.86, y: 0.45, w: 0.14, h: 0.43 },
    { x: 0, y: 0.79, w: 1, h: 0.21 },
  ],
  instagram: [
    { x: 0, y: 0, w: 1, h: 0.068 },
    { x: 0.88, y: 0.5, w: 0.12, h: 0.4 },
    { x: 0, y: 0.8, w: 1, h: 0.2 },
  ],
};

/** The interface rectangles of a safe-zone choice, as fractions of the frame. */
export function safeZoneFractions(zone: SafeZone): ZoneRect[] {
  if (zone === 'none') return [];
  if (zone === 'all') return SAFE_ZONE_PLATFORMS.flatMap((platform) => PLATFORM_UI_ZONES[platform].map((rect) => ({ ...rect })));
  return PLATFORM_UI_ZONES[zone].map((rect) => ({ ...rect }));
}

/**
 * The areas to keep clear on a frame of `frame.width` x `frame.height` (pixels, or 1 x 1 for
 * fractions): the zone's rectangles scaled to it, for drawing outlines or placing titles and logos.
 * Platforms show only vertical video full screen, so a horizontal frame has none.
 */
export function safeZoneRects(zone: SafeZone, frame: { width: number; height: number }): ZoneRect[] {
  if (frame.width > frame.height) return [];
  return safeZoneFractions(zone).map((rect) => ({ x: rect.x * frame.width, y: rect.y * frame.height, w: rect.w * frame.width, h: rect.h * frame.height }));
}

/** The free vertical band between the zone's top and bottom bars (pixels of `height`). */
export function clearBand(rects: readonly ZoneRect[], frame: { width: number; height: number }): { top: number; bottom: number } {
  let top = 0;
  let bottom = frame.height;
  for (const rect of rects) {
    if (!spansCentre(rect, frame.width)) continue;
    if (rect.y + rect.h / 2 < frame.height / 2) top = Math.max(top, rect.y + rect.h);
    else bottom = Math.min(bottom, rect.y);
  }
  return { top, bottom };
}

/**
 * The widest half-width a block centred on the frame may have between `top` and `bottom` (pixels)
 * without entering a side rectangle (a button column).
 */
export function clearHalfWidth(rects: readonly ZoneRect[], frame: { width: number; height: number }, top: number, bottom: number): number {
  const centre = frame.width / 2;
  let half = centre;
  for (const rect of rects) {
    if (spansCentre(rect, frame.width) || rect.y >= bottom || rect.y + rect.h <= top) continue;
    half = Math.min(half, rect.x >= centre ? rect.x - centre : centre - (rect.x + rect.w));
  }
  return Math.max(0, half);
}

/** A bar across the frame's middle (top or bottom interface) rather than a column at a side. */
function spansCentre(rect: ZoneRect, width: number): boolean {
  return rect.x <= width / 2 && rect.x + rect.w >= width / 2;
}
