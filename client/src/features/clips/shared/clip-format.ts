import type { Clip, ClipLoudness } from '@clipshift/shared';

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

/** One decimal with a typographic minus, as loudness meters write it: -14.06 → "−14.1". */
function decibels(value: number): string {
  const rounded = value.toFixed(1);
  // -0.04 rounds to "-0.0": no sign on a zero.
  return Number(rounded) === 0 ? '0.0' : rounded.replace('-', '\u2212');
}

/** "−14.1 LUFS · peak −1.2 dBTP": the rendered video's integrated loudness and true peak. */
export function formatLoudness(loudness: ClipLoudness): string {
  return `${decibels(loudness.integrated_lufs)} LUFS · peak ${decibels(loudness.true_peak_dbtp)} dBTP`;
}

/** How long the clip's video plays: the kept part after a trim (`duration` is the source's). */
export function videoDuration(clip: Pick<Clip, 'output_duration'>): number {
  return clip.output_duration;
}

/** Whether the studio's trim keeps less than the whole source (to the tenth of a second shown). */
export function isTrimmed(clip: Pick<Clip, 'trim_start' | 'trim_end' | 'duration'>): boolean {
  return clip.trim_end - clip.trim_start < clip.duration - 0.05;
}

export function isVertical(clip: Pick<Clip, 'format_type'>): boolean {
  return clip.format_type === 'vertical';
}

export { versionedUrl } from '@/lib/media-url';
