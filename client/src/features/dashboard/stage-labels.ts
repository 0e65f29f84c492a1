import { CLIP_STAGE_LABELS, MEASURED_CLIP_STAGES, type ClipProgress } from '@clipshift/shared';

/** e.g. "Rendering 'ace clutch' — 42%", or "Inspecting 'ace clutch'…" for an unmeasured stage. */
export function describeClipProgress(clip: ClipProgress): string {
  const label = CLIP_STAGE_LABELS[clip.stage] ?? clip.stage;
  const what = `${label} '${clip.title}'`;
  return MEASURED_CLIP_STAGES.includes(clip.stage) ? `${what} — ${Math.round(clip.percent)}%` : `${what}…`;
}
