import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { completeClipEdit, type ClipFrameInput, type PreviewClipInput } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import { isMediaError, previewFrame, probe, type ProbeResult } from '../../engines/media/index.ts';
import { notFound } from '../../platform/errors.ts';
import { RateLimited } from '../../platform/rate-limit.ts';
import { StorageMissing } from '../../platform/storage/index.ts';
import { createSlots } from '../../platform/slots.ts';
import { cachedClipSource, findClipWithMedia, instanceWorkDir, type ClipRow } from '../clips/service.ts';
import { captionsFor, savedCaptionsOf, settledPlan } from './pipeline.ts';
import { assertRenderable, clipRenderPlan, mergedEdit, streamerRowOf } from './edits.ts';
import { studioOf } from '../streamers/service.ts';

/** Where this process makes its images, and what aborts them (the client went away). */
export interface ImageRun {
  /** The process's instance id: scratch files go in its work folder, which recovery leaves alone while it lives. */
  instance: string;
  signal?: AbortSignal | undefined;
}

/*
 * Each image is one ffmpeg process. A user dragging a slider asks for many; two run at once per
 * process and a few more wait briefly, the rest are told to come back (the client debounces too).
 */
const IMAGE_SLOTS = 2;
const IMAGE_WAIT_MS = 10_000;
const IMAGE_MAX_WAITING = 6;
export const IMAGES_BUSY = 'Too many previews are being made right now: try again in a moment';
export const imageSlots = createSlots({ size: IMAGE_SLOTS, waitMs: IMAGE_WAIT_MS, maxWaiting: IMAGE_MAX_WAITING, refuse: () => new RateLimited(IMAGES_BUSY, 1) });

/**
 * The clip's kept source and what ffprobe says of it; 404 when the file is gone or holds no video
 * ffprobe can read (there is no frame to show; the answer names neither paths nor ffprobe's output).
 */
export async function sourceOf(deps: AppDeps, clip: ClipRow, run: ImageRun): Promise<{ source: string; info: ProbeResult }> {
  const { signal } = run;
  let source: string;
  try {
    source = await cachedClipSource(deps.storage, clip, path.join(instanceWorkDir(deps.env.dataDir, run.instance), 'sources'), signal);
  } catch (error) {
    if (error instanceof StorageMissing) throw notFound(`The source video of clip ${clip.clip_id} is missing`);
    throw error;
  }
  try {
    return { source, info: await probe(deps.media.ffprobe, source, signal) };
  } catch (error) {
    if (isMediaError(error, 'invalid_input')) throw notFound(`The source video of clip ${clip.clip_id} cannot be read`);
    throw error;
  }
}

/**
 * Runs `make` in a slot with a scratch folder of its own inside the instance's work folder, and
 * answers the JPEG it wrote; the folder goes whatever happens.
 */
async function makeImage(deps: AppDeps, run: ImageRun, make: (folder: string, output: string) => Promise<void>): Promise<Buffer> {
  return imageSlots.run(async () => {
    const folder = path.join(instanceWorkDir(deps.env.dataDir, run.instance), `preview-${randomUUID()}`);
    try {
      await mkdir(folder, { recursive: true });
      const output = path.join(folder, 'frame.jpg');
      await make(folder, output);
      return await readFile(output);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
}

/** GET /api/clips/{id}/frame: the untouched source frame at t (clamped into the clip), at the source's size. */
export async function clipFrame(deps: AppDeps, userId: string, input: ClipFrameInput, run: ImageRun): Promise<Buffer> {
  const clip = await findClipWithMedia(deps.db, userId, input.id);
  return makeImage(deps, run, async (_folder, output) => {
    const { source, info } = await sourceOf(deps, clip, run);
    await previewFrame({ ffmpeg: deps.media.ffmpeg, source, sourceInfo: info, layout: 'horizontal', t: input.t ?? 0, output, signal: run.signal, logger: deps.logger });
  });
}

/**
 * POST /api/clips/{id}/preview: the frame at t exactly as a render with the saved settings and
 * these unsaved changes would show it, the clip's words burned in. Settings a render would refuse
 * are refused the same way (400). t is seconds from the source's start, kept inside the trim; by
 * default the middle of the kept section.
 */
export async function previewClip(deps: AppDeps, userId: string, input: PreviewClipInput, run: ImageRun): Promise<Buffer> {
  const { id, t, ...changes } = input;
  const clip = await findClipWithMedia(deps.db, userId, id);
  const streamer = await streamerRowOf(deps.db, clip);
  assertRenderable(clip, mergedEdit(completeClipEdit(clip.edit), changes), streamer ? studioOf(streamer) : null);
  return makeImage(deps, run, async (folder, output) => {
    const { source, info } = await sourceOf(deps, clip, run);
    // Detection as the clip's last render found it, or a fresh look when it never rendered with `auto`.
    const { plan } = await settledPlan(deps, await clipRenderPlan(deps.db, clip, info.durationSec, { changes, streamer }), { path: source, info }, { signal: run.signal, known: clip.detected });
    const kept = plan.trim ?? { start: 0, end: info.durationSec };
    const at = t === undefined ? (kept.start + kept.end) / 2 : Math.min(Math.max(t, kept.start), kept.end);
    // The same captions a render would burn: its words, in its style, upper-cased by their language's rules.
    const saved = savedCaptionsOf(clip);
    const words = saved.kind === 'saved' ? saved : { words: [], language: null };
    const logo = plan.logo ? await deps.storage.localCopy(plan.logo.key, path.join(folder, 'logo'), run.signal) : null;
    const captions = await captionsFor(plan, info, words.words, words.language, path.join(folder, 'captions.ass'), logo);
    await previewFrame({ ffmpeg: deps.media.ffmpeg, source, sourceInfo: info, layout: plan.layout, captions, trim: plan.trim, t: at, output, signal: run.signal, logger: deps.logger });
  });
}
