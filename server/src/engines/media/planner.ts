import os from 'node:os';
import type { Logger } from '../../platform/logger.ts';
import { renderEncoderInfo } from '../../platform/metrics.ts';
import { createSlots, type Slots } from '../../platform/slots.ts';
import { chooseEncoder, type EncoderChoice, type EncoderSetting } from './encoders.ts';
import { MediaAbortError } from './errors.ts';

/** FFMPEG_ENCODER, FFMPEG_MAX_PARALLEL and FFMPEG_THREADS as env.ts reads them. */
export interface RenderSettings {
  encoder: EncoderSetting;
  /** Full renders at once in this process; unset: from the cores and the demand. */
  maxParallel?: number | undefined;
  /** Threads per ffmpeg (decoder, filters, encoder); unset: the cores shared among the renders. */
  threads?: number | undefined;
  /** How many renders this process can be asked for at once (WORKER_CONCURRENCY: a run's clips, jobs); unset: no bound. */
  demand?: number | undefined;
}

export interface RenderPlan {
  /** Cores this process may use (os.availableParallelism: honours CPU affinity). */
  cores: number;
  /** Full renders that run at once; the rest wait in line. */
  renders: number;
  /** Threads each ffmpeg gets for decoding, filtering and (libx264) encoding when every slot is busy. */
  threads: number;
  /** FFMPEG_THREADS was set: every render gets exactly `threads`. */
  fixedThreads: boolean;
}

/**
 * How the cores are shared: as many renders as there are cores, but no more than can be asked for
 * at once (WORKER_CONCURRENCY), each given its share of the cores as threads (rounded, at least 1).
 * Several single-threaded renders side by side need less CPU for the same work than one render
 * with as many threads (x264's frame threads and the filtergraph's serial steps cost), so on 2
 * cores two renders with one thread each beat one with two (docs/benchmarks.md "Parallel
 * renders"); where there are more cores than renders to run, the spare cores go to the threads.
 * FFMPEG_MAX_PARALLEL sets the number of renders (the threads follow), FFMPEG_THREADS the threads.
 */
export function planRenders(cores: number, settings: Pick<RenderSettings, 'maxParallel' | 'threads' | 'demand'> = {}): RenderPlan {
  const usable = Math.max(1, Math.floor(cores));
  const byCores = Math.min(usable, Math.max(1, Math.floor(settings.demand ?? usable)));
  const renders = Math.max(1, Math.floor(settings.maxParallel ?? byCores));
  const threads = Math.max(1, Math.floor(settings.threads ?? Math.round(usable / renders)));
  return { cores: usable, renders, threads, fixedThreads: settings.threads !== undefined };
}

/**
 * Threads for a render starting now, with `running` renders (itself included) in the slots: the
 * cores shared among those running, so a lone re-render on 2 cores gets both while a run's renders
 * get one each. ffmpeg's threads are fixed at start, so a render that started alone keeps its share
 * when others join: briefly a few threads more than cores, never renders × cores.
 */
export function threadsFor(plan: RenderPlan, running: number): number {
  if (plan.fixedThreads) return plan.threads;
  return Math.max(plan.threads, Math.round(plan.cores / Math.max(1, Math.min(running, plan.renders))));
}

interface Rendering {
  key: string;
  settings: RenderSettings;
  plan: RenderPlan;
  slots: Slots;
  logger: Logger | undefined;
  /** One probe per ffmpeg binary, for the life of the process. */
  encoders: Map<string, Promise<EncoderChoice>>;
}

let current: Rendering | undefined;

function build(settings: RenderSettings, logger: Logger | undefined): Rendering {
  const plan = planRenders(os.availableParallelism(), settings);
  const slots = createSlots({ size: plan.renders, waitMs: Number.POSITIVE_INFINITY, maxWaiting: Number.POSITIVE_INFINITY, refuse: () => new Error('render slots never refuse') });
  return { key: JSON.stringify([settings.encoder, settings.maxParallel ?? null, settings.threads ?? null, settings.demand ?? null]), settings, plan, slots, logger, encoders: new Map() };
}

/**
 * Sets this process's render plan from the configuration (createDeps calls it). The same settings
 * again keep the plan, its line of waiting renders and the probed encoder; other settings (only
 * tests change them within a process) start a new plan, and renders already holding a slot of the
 * old one finish in it.
 */
export function configureRendering(settings: RenderSettings, logger?: Logger): RenderPlan {
  const next = build(settings, logger);
  if (current?.key === next.key) {
    current.logger = logger ?? current.logger;
    return current.plan;
  }
  current = next;
  logger?.info({ ...next.plan, encoder: settings.encoder }, `Render plan: ${next.plan.renders} render(s) at once, ${next.plan.threads} thread(s) each, on ${next.plan.cores} core(s)`);
  return next.plan;
}

/** Without configuration (benches, engine tests): planned from the cores, libx264 without a probe. */
function rendering(): Rendering {
  current ??= build({ encoder: 'libx264' }, undefined);
  return current;
}

export function currentRenderPlan(): RenderPlan {
  return rendering().plan;
}

/** Threads for a render that starts now (see threadsFor). */
export function renderThreadsNow(): number {
  const { plan, slots } = rendering();
  return threadsFor(plan, slots.running);
}

/** Renders running and waiting now in this process (for tests and logs). */
export function renderSlotUsage(): { running: number; waiting: number; size: number } {
  const { slots } = rendering();
  return { running: slots.running, waiting: slots.waiting, size: slots.size };
}

/** The encoder renders use with this ffmpeg: probed once per process (FFMPEG_ENCODER), then cached. */
export function renderEncoder(ffmpeg: string): Promise<EncoderChoice> {
  const state = rendering();
  let choice = state.encoders.get(ffmpeg);
  if (!choice) {
    choice = chooseEncoder(ffmpeg, state.settings.encoder, state.logger).then((chosen) => {
      renderEncoderInfo.reset();
      renderEncoderInfo.set({ encoder: chosen.encoder.name }, 1);
      return chosen;
    });
    state.encoders.set(ffmpeg, choice);
  }
  return choice;
}

export interface SlotWait {
  signal?: AbortSignal | undefined;
  /** Called when the render has to wait for a slot (all are taken). */
  onWait?: (() => void) | undefined;
}

/**
 * Runs one full render (an encode of a whole clip) in one of the plan's slots, after the renders
 * ahead of it in line. Aborting while it waits takes it out of the line at once (MediaAbortError);
 * the slot is given back however the render ends, so a failed or stopped render never blocks others.
 */
export async function inRenderSlot<T>(task: () => Promise<T>, wait: SlotWait = {}): Promise<T> {
  try {
    return await rendering().slots.run(task, { signal: wait.signal, onWait: wait.onWait });
  } catch (error) {
    if (wait.signal?.aborted && error === wait.signal.reason) throw new MediaAbortError('The render was cancelled while it waited for a render slot', { cause: error });
    throw error;
  }
}
