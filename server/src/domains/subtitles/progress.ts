import { IDLE_RENDER, type ClipRender } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import type { RenderJobKind, SubtitleRequestStatus, SubtitleStage } from '../../platform/db/schema.ts';
import { throttledWriter } from '../../platform/throttled-writer.ts';
import { selectLatestRequests, updateRunningProgress, type LatestRequest } from './queries.ts';

/**
 * The share of the job's percent each stage covers. Transcription and the render dominate; the
 * description suggestions are one quick call at the end.
 */
const STAGE_SPANS: Record<RenderJobKind, Record<SubtitleStage, readonly [from: number, to: number]>> = {
  // The description comes before the render: its hook suggestion can title the clip.
  subtitles: {
    transcribing: [0, 45],
    describing: [45, 48],
    rendering: [48, 99],
  },
  // A re-render is one encode: it is the whole job (it has no other stages).
  render: {
    transcribing: [0, 0],
    rendering: [0, 100],
    describing: [100, 100],
  },
};

/** The job's percent when `stage` is `fraction` (0–1) done. */
export function jobPercent(stage: SubtitleStage, fraction: number, kind: RenderJobKind = 'subtitles'): number {
  const [from, to] = STAGE_SPANS[kind][stage];
  const clamped = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  return Math.round(from + (to - from) * clamped);
}

export interface SubtitleProgress {
  report(stage: SubtitleStage, fraction: number): void;
  /** Nothing is written after this resolves, so the job's final update is the last word. */
  stop(): Promise<void>;
}

/** Saves a running request's stage and percent, at most once a second, only while it runs. */
export function subtitleProgress(db: DbOrTrx, requestId: string, kind: RenderJobKind = 'subtitles'): SubtitleProgress {
  const writer = throttledWriter((value: { stage: SubtitleStage; percent: number }) => updateRunningProgress(db, requestId, value));
  return {
    report: (stage, fraction) => writer.push({ stage, percent: jobPercent(stage, fraction, kind) }),
    stop: writer.stop,
  };
}

interface RequestState {
  status: SubtitleRequestStatus;
  stage: SubtitleStage | null;
  percent: number | null;
  message: string | null;
}

/**
 * A clip's latest request as the API shows it: finished ones (done, no speech) and a stopped
 * re-render (the previous video stays) leave the clip idle.
 */
export function toRender(request: RequestState | undefined): ClipRender {
  if (!request) return IDLE_RENDER;
  switch (request.status) {
    case 'queued':
      return { status: 'queued', stage: null, percent: 0, error: null };
    case 'running':
      return { status: 'rendering', stage: request.stage, percent: request.percent ?? 0, error: null };
    case 'failed':
      return { status: 'failed', stage: request.stage, percent: null, error: request.message ?? 'Subtitle generation failed' };
    case 'done':
    case 'no_speech':
    case 'stopped':
      return IDLE_RENDER;
  }
}

/** The render state of a clip from its latest request as another statement carried it (renderStateColumn). */
export function renderStateOf(request: LatestRequest | null): ClipRender {
  return toRender(request ?? undefined);
}

/** The render state of each clip, keyed by clip row id (clips without a request are idle: absent). */
export async function renderStates(db: DbOrTrx, clipRowIds: readonly string[]): Promise<Map<string, ClipRender>> {
  if (!clipRowIds.length) return new Map();
  const rows = await selectLatestRequests(db, clipRowIds);
  return new Map(rows.map((row) => [row.clip_row_id, toRender(row)]));
}
