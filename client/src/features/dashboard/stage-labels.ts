import type { ClipProgress, ClipStage } from '@clipshift/shared';

const STAGE_LABELS: Record<ClipStage, string> = {
  queued: 'Queued',
  downloading: 'Downloading',
  probing: 'Inspecting',
  transcribing: 'Transcribing',
  rendering: 'Rendering',
  thumbnail: 'Making thumbnail for',
  saving: 'Saving',
};

/** Only these stages measure their progress; the others report 0 until they finish. */
const MEASURED_STAGES: ReadonlySet<ClipStage> = new Set(['downloading', 'rendering']);

/** e.g. "Rendering 'ace clutch' — 42%", or "Inspecting 'ace clutch'…" for an unmeasured stage. */
export function describeClipProgress(clip: ClipProgress): string {
  const label = STAGE_LABELS[clip.stage] ?? clip.stage;
  const what = `${label} '${clip.title}'`;
  return MEASURED_STAGES.has(clip.stage) ? `${what} — ${Math.round(clip.percent)}%` : `${what}…`;
}
