import { CLIP_STAGE_LABELS, describeSkips, MEASURED_CLIP_STAGES, STREAMER_SELECTION_DEFAULTS, type ClipProgress, type StatusEntry, type StreamerSelection } from '@clipshift/shared';

/** "2 of 5 clips downloaded · 1 failed"; the total is known once the run has listed its clips. */
export function clipsSummary(entry: Pick<StatusEntry, 'clips_downloaded' | 'clips_total' | 'clips_failed'>): string {
  const counted = entry.clips_total > 0 ? entry.clips_total : entry.clips_downloaded;
  const total = entry.clips_total > 0 ? ` of ${entry.clips_total}` : '';
  const failed = entry.clips_failed > 0 ? ` · ${entry.clips_failed} failed` : '';
  return `${entry.clips_downloaded}${total} ${counted === 1 ? 'clip' : 'clips'} downloaded${failed}`;
}

/** e.g. "Rendering 'ace clutch' — 42%", or "Inspecting 'ace clutch'…" for an unmeasured stage. */
export function describeClipProgress(clip: ClipProgress): string {
  const label = CLIP_STAGE_LABELS[clip.stage] ?? clip.stage;
  const what = `${label} '${clip.title}'`;
  return MEASURED_CLIP_STAGES.includes(clip.stage) ? `${what} — ${Math.round(clip.percent)}%` : `${what}…`;
}

/**
 * "7 skipped: 4 under 500 views, 3 by other creators", or null when the selection rules skipped
 * nothing (or the run has not listed its clips yet). Without the streamer, the defaults word it.
 */
export function skippedSummary(entry: Pick<StatusEntry, 'skipped'>, rules: Pick<StreamerSelection, 'clip_period' | 'min_views'> = STREAMER_SELECTION_DEFAULTS): string | null {
  const counts = entry.skipped;
  if (!counts) return null;
  const total = Object.values(counts).reduce<number>((sum, count) => sum + (count ?? 0), 0);
  return total > 0 ? `${total} skipped: ${describeSkips(counts, rules)}` : null;
}
