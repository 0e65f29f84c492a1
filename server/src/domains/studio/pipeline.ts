import path from 'node:path';
import type { Detection, TranscriptWordDto } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import { CLIP_FILES, transcriptWordsOf, type ClipRow, type RenderedVideo, type TranscriptUpdate } from '../clips/service.ts';
import { clipThumbnail, detectCamera, outputFrame, probe, renderClip, type ClipLayout, type ProbeResult, type SubtitleOverlay, type VerticalLayoutSpec } from '../../engines/media/index.ts';
import { joinWords, type Transcriber, type Transcript } from '../../engines/providers/transcription/index.ts';
import { writeCaptionOverlay } from './captions.ts';
import { resolvedLayout, type RenderPlan } from './settings.ts';

/*
 * The one way a clip's video is made, for download runs, subtitle jobs and re-renders alike:
 * source → probe → plan (the camera detected for `auto`) → captions → render → probe → thumbnail. Saving (a new clip) or replacing
 * (an existing one, in the transaction that ends its request) is the caller's last step. Previews
 * take the same plan and captions (captionsFor) and draw one frame of the same graph.
 */

/** ffmpeg finishes a short clip's render well inside this, or it is stuck. */
export const RENDER_TIMEOUT_MS = 20 * 60_000;

/** Where the clip's words come from. */
export type CaptionSource =
  /** No captions (the streamer does not subtitle, or the clip never was). */
  | { kind: 'none' }
  /** Words already saved on the clip (recognised earlier, or corrected by the user). */
  | { kind: 'saved'; words: readonly TranscriptWordDto[]; language: string | null }
  /**
   * Speech recognition now. `speechRequired` makes a clip without speech an error (NoSpeechFound):
   * a subtitle request has nothing to do then, while a run renders the clip without captions.
   */
  | { kind: 'transcribe'; language: string | null; model: string | undefined; speechRequired: boolean };

export type PipelineStage = 'probing' | 'transcribing' | 'waiting_to_render' | 'rendering' | 'thumbnail';

export interface ClipVideoJob<D extends Described = Described> {
  /** The clip's source, as a local file. */
  source: string;
  /** The job's own scratch folder: the video, thumbnail and captions are written here. */
  workDir: string;
  /** The clip's settings, once the source's length is known. */
  plan(sourceDurationSec: number): RenderPlan | Promise<RenderPlan>;
  captions: CaptionSource;
  signal: AbortSignal;
  /**
   * Describes the clip once its words are known, before the render: what it answers as the hook
   * suggestion titles the clip when its streamer turns hooks on (the one encode burns it).
   */
  describe?: ((spoken: { text: string | null; language: string | null }) => Promise<D>) | undefined;
  /** Progress: the stage, and the fraction (0–1) of it done where that is measurable. */
  onStage(stage: PipelineStage, fraction: number): void;
}

/** What a job's description step answers: at least the hook it suggests. */
export interface Described {
  hook: string | null;
}

export interface ClipVideo<D extends Described = Described> {
  /** What the job's description step answered; null without one. */
  described: D | null;
  sourceInfo: ProbeResult;
  plan: SettledPlan;
  /** In the job's work folder, ready to be saved or moved over the clip's. */
  files: { video: string; thumbnail: string };
  rendered: RenderedVideo;
  /** What speech recognition heard this time, as the clip stores it; null when nothing was recognised now. */
  recognised: TranscriptUpdate | null;
  /** The words that were burned in, as text; null when the video has no captions. */
  spokenText: string | null;
  /** The language of the words burned in. */
  spokenLanguage: string | null;
}

/** Speech recognition found no speech in a clip whose job needs some (a subtitle request). */
export class NoSpeechFound extends Error {
  constructor() {
    super('No speech found');
  }
}

/** The transcriber, or the reason subtitles cannot be made on this server. */
export function requireTranscriber(deps: Pick<AppDeps, 'transcriber' | 'transcriberProblem'>): Transcriber {
  if (!deps.transcriber) throw new Error(deps.transcriberProblem ?? 'Transcription is not configured');
  return deps.transcriber;
}

/** Speech recognition's words as the clip stores them (seconds from the source's start). */
export function recognisedTranscript(transcript: Transcript): TranscriptUpdate {
  return {
    text: transcript.text,
    words: transcript.words.map((word) => ({ start: word.start, end: word.end, text: word.text })),
    language: transcript.language ?? null,
    edited: false,
  };
}

/**
 * The captions of a render or a preview with this plan: the words on the render's timeline, in the
 * plan's style, upper-cased by the rules of their language. Null when there are no words to show.
 */
export function captionsFor(
  plan: SettledPlan,
  sourceInfo: ProbeResult,
  words: readonly TranscriptWordDto[],
  language: string | null,
  assPath: string,
  logoFile: string | null = null,
): Promise<SubtitleOverlay | null> {
  return writeCaptionOverlay({
    words,
    style: plan.captionStyle,
    frame: outputFrame(plan.layout, sourceInfo),
    trimStart: plan.trim?.start ?? 0,
    assPath,
    language,
    // The glossary's terms are keywords for the emphasis, in the render and the preview alike.
    glossary: plan.glossary,
    hook: plan.hook,
    logo: plan.logo && logoFile ? { image: logoFile, position: plan.logo.position, opacity: plan.logo.opacity } : null,
  });
}

/** A plan whose layout is settled: `auto` resolved by detection. */
export interface SettledPlan extends Omit<RenderPlan, 'layout'> {
  layout: ClipLayout | VerticalLayoutSpec;
}

/**
 * The plan with its layout settled: an `auto` layout looks for the streamer's camera in the source
 * (or takes what an earlier look found, `known`), and renders split with it, or blur without.
 * `detected` is what the look found; null when the layout needed none.
 */
export async function settledPlan(
  deps: Pick<AppDeps, 'media'>,
  plan: RenderPlan,
  source: { path: string; info: ProbeResult },
  options: { signal?: AbortSignal | undefined; known?: Detection | null | undefined } = {},
): Promise<{ plan: SettledPlan; detected: Detection | null }> {
  const { layout } = plan;
  if (typeof layout === 'string' || layout.kind !== 'auto') return { plan: { ...plan, layout }, detected: null };
  const detected = options.known ?? (await detectionOf(deps, source, options.signal));
  return { plan: { ...plan, layout: resolvedLayout(layout, detected) }, detected };
}

export async function detectionOf(deps: Pick<AppDeps, 'media'>, source: { path: string; info: ProbeResult }, signal: AbortSignal | undefined): Promise<Detection> {
  const found = await detectCamera({ ffmpeg: deps.media.ffmpeg, source: source.path, sourceInfo: source.info, signal });
  return { facecam: found.facecam, confidence: found.confidence };
}

/** The words a render or preview of this clip burns: its saved ones (a clip has them once subtitled), else none. */
export function savedCaptionsOf(clip: Pick<ClipRow, 'transcript_words' | 'transcript_language'>): CaptionSource {
  const words = transcriptWordsOf(clip);
  return words?.length ? { kind: 'saved', words, language: clip.transcript_language } : { kind: 'none' };
}

interface Words {
  words: readonly TranscriptWordDto[];
  language: string | null;
  recognised: TranscriptUpdate | null;
}

async function wordsOf(deps: Pick<AppDeps, 'transcriber' | 'transcriberProblem'>, job: ClipVideoJob<Described>, plan: SettledPlan): Promise<Words | null> {
  const { captions } = job;
  if (captions.kind === 'none') return null;
  if (captions.kind === 'saved') return { words: captions.words, language: captions.language, recognised: null };
  const transcriber = requireTranscriber(deps);
  job.onStage('transcribing', 0);
  const transcript = await transcriber.transcribe({
    audioPath: job.source,
    language: captions.language || undefined,
    // The saved model names whisper.cpp models; an OpenAI-compatible server uses its own.
    model: transcriber.engine === 'local' ? captions.model : undefined,
    vocabulary: plan.glossary,
    signal: job.signal,
    onProgress: (fraction) => job.onStage('transcribing', fraction),
  });
  if (transcript.noSpeech || transcript.words.length === 0) {
    if (captions.speechRequired) throw new NoSpeechFound();
    return null;
  }
  return { words: transcript.words, language: transcript.language ?? null, recognised: recognisedTranscript(transcript) };
}

/** Makes the clip's video and thumbnail in the job's work folder (see the top of this file). */
export async function makeClipVideo<D extends Described>(deps: Pick<AppDeps, 'media' | 'logger' | 'storage' | 'transcriber' | 'transcriberProblem'>, job: ClipVideoJob<D>): Promise<ClipVideo<D>> {
  const { media } = deps;
  const { signal } = job;
  job.onStage('probing', 0);
  const sourceInfo = await probe(media.ffprobe, job.source, signal);
  const { plan: settled, detected } = await settledPlan(deps, await job.plan(sourceInfo.durationSec), { path: job.source, info: sourceInfo }, { signal });
  const spoken = await wordsOf(deps, job, settled);
  const described = job.describe ? await job.describe({ text: spoken ? spokenText(spoken) : null, language: spoken?.language ?? null }) : null;
  const plan = withSuggestedHook(settled, described);
  const logo = plan.logo ? await deps.storage.localCopy(plan.logo.key, path.join(job.workDir, 'logo'), signal) : null;
  const overlay = await captionsFor(plan, sourceInfo, spoken?.words ?? [], spoken?.language ?? null, path.join(job.workDir, 'captions.ass'), logo);

  job.onStage('rendering', 0);
  const video = path.join(job.workDir, CLIP_FILES.video);
  const render = await renderClip({
    ffmpeg: media.ffmpeg,
    source: job.source,
    output: video,
    sourceInfo,
    layout: plan.layout,
    captions: overlay,
    trim: plan.trim,
    audio: { normalize: plan.normalizeAudio },
    outro: plan.brand?.outro_seconds ? { seconds: plan.brand.outro_seconds, logo } : null,
    signal,
    logger: deps.logger,
    onWaiting: () => job.onStage('waiting_to_render', 0),
    onProgress: (fraction) => job.onStage('rendering', fraction),
    timeoutMs: RENDER_TIMEOUT_MS,
  });
  const output = await probe(media.ffprobe, video, signal);
  job.onStage('thumbnail', 0);
  const thumbnail = path.join(job.workDir, CLIP_FILES.thumbnail);
  // From the video itself: the layout or trim may differ from the clip's last picture.
  await clipThumbnail({ ffmpeg: media.ffmpeg, source: video, output: thumbnail, durationSec: output.durationSec, signal });
  return {
    described,
    sourceInfo,
    plan,
    files: { video, thumbnail },
    rendered: { sizeBytes: output.sizeBytes, durationSec: output.durationSec, width: output.width, height: output.height, loudness: render.loudness, detected },
    recognised: spoken?.recognised ?? null,
    spokenText: spoken ? spokenText(spoken) : null,
    spokenLanguage: spoken?.language ?? null,
  };
}

/** The plan with the hook the description step suggests, where the streamer's hook asks for one. */
function withSuggestedHook(plan: SettledPlan, described: Described | null): SettledPlan {
  const hook = described?.hook;
  if (!hook?.trim() || !plan.hookSuggestible || !plan.hook) return plan;
  return { ...plan, hook: { text: hook.trim(), seconds: plan.hook.seconds } };
}

function spokenText(spoken: Words): string {
  return spoken.recognised?.text ?? joinWords(spoken.words.map((word) => word.text));
}
