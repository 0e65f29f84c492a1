import type { Clip } from '@clipshift/shared';

const compactCount = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
const fullCount = new Intl.NumberFormat();

/** "12.3K views" on cards; the exact count goes in a title attribute. */
export function formatViews(count: number): string {
  return `${compactCount.format(count)} ${count === 1 ? 'view' : 'views'}`;
}

/** "12,345 views" where there is room for it. */
export function formatViewsFull(count: number): string {
  return `${fullCount.format(count)} ${count === 1 ? 'view' : 'views'}`;
}

/** 12.5 → "0:13", 3723 → "1:02:03". */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secs}` : `${minutes}:${secs}`;
}

export function isVertical(clip: Pick<Clip, 'format_type'>): boolean {
  return clip.format_type === 'vertical';
}

export { versionedUrl } from '@/lib/media-url';
