import { errorFromSubcode, isMetaError, MetaError, type MetaErrorKind } from '../meta/errors.ts';
import { graphRequest, pause, type MetaRuntime } from '../meta/graph.ts';
import { reelContainerProblems } from './rules.ts';
import { containerStatusSchema, idSchema, type ContainerState, type ReelContainerRequest, type WaitForContainerOptions } from './types.ts';

/*
 * Publishing a Reel: a container that Instagram fills by downloading the video from our URL, its
 * status until FINISHED (or ERROR / EXPIRED: containers live 24 hours), then media_publish, which
 * turns it into a post. A container publishes once: a second media_publish is refused, so after a
 * refusal or a lost answer the container's own status says whether the post exists.
 */

export interface ContainersConfig {
  /** INSTAGRAM_GRAPH_URL */
  graphUrl: string;
}

/** Trial Reels graduate to followers on their own when they do well ("SS_PERFORMANCE"), not by hand in the app. */
const TRIAL_GRADUATION = 'SS_PERFORMANCE';

/** Creates the container and returns its id; Instagram starts downloading the video at once. */
export async function createReelContainer(config: ContainersConfig, runtime: MetaRuntime, token: string, igUserId: string, request: ReelContainerRequest, signal?: AbortSignal): Promise<string> {
  const problems = reelContainerProblems(request);
  if (problems.length > 0) throw new MetaError('instagram', 'invalid_request', problems.join(' '), { code: 'invalid_container', detail: problems.join(' ') });
  const body: Record<string, unknown> = {
    media_type: 'REELS',
    video_url: request.videoUrl,
    caption: request.caption,
    share_to_feed: request.shareToFeed,
  };
  if (request.collaborators.length > 0) body.collaborators = request.collaborators;
  if (request.trialReel) body.trial_params = { graduation_strategy: TRIAL_GRADUATION };
  // A container created twice (a lost answer, retried) is harmless: the unused one expires in a day.
  const created = await graphRequest(
    runtime,
    { platform: 'instagram', what: 'Instagram POST /{ig-user-id}/media', method: 'POST', base: config.graphUrl, path: `/${encodeURIComponent(igUserId)}/media`, token, json: body, signal },
    idSchema,
  );
  runtime.logger.info({ containerId: created.id, trialReel: request.trialReel, collaborators: request.collaborators.length }, 'Instagram Reel container created');
  return created.id;
}

/** Instagram names an ERROR's cause in `status` ("Error: … 2207026"); the subcode, when it does. */
function subcodeIn(status: string | undefined): number | null {
  const match = /\b(22\d{5})\b/.exec(status ?? '');
  return match?.[1] ? Number(match[1]) : null;
}

export async function containerStatus(config: ContainersConfig, runtime: MetaRuntime, token: string, containerId: string, signal?: AbortSignal): Promise<ContainerState> {
  const body = await graphRequest(
    runtime,
    {
      platform: 'instagram',
      what: 'Instagram GET /{container-id}',
      method: 'GET',
      base: config.graphUrl,
      path: `/${encodeURIComponent(containerId)}`,
      query: { fields: 'status_code,status' },
      token,
      signal,
    },
    containerStatusSchema,
  );
  return { containerId, statusCode: body.status_code, errorSubcode: body.status_code === 'ERROR' ? subcodeIn(body.status) : null, status: body.status ?? null };
}

/** Why a container that is not FINISHED (nor IN_PROGRESS) cannot be published. */
export function containerFailure(state: ContainerState): MetaError {
  const detail = `container ${state.containerId} is ${state.statusCode}${state.status ? ` (${state.status})` : ''}`;
  const fallback: Record<Exclude<ContainerState['statusCode'], 'FINISHED'>, { kind: MetaErrorKind; reason: string }> = {
    ERROR: { kind: 'media_rejected', reason: 'processing_failed' },
    EXPIRED: { kind: 'expired', reason: 'expired' },
    PUBLISHED: { kind: 'already_published', reason: 'already_published' },
    IN_PROGRESS: { kind: 'not_ready', reason: 'not_ready' },
  };
  if (state.statusCode === 'FINISHED') throw new RangeError('a FINISHED container has not failed');
  return errorFromSubcode('instagram', state.statusCode === 'ERROR' ? state.errorSubcode : null, fallback[state.statusCode], detail);
}

/** Waits between status reads: quick at first (short clips finish in seconds), then every 30 s. */
const POLL_WAITS_MS = [3_000, 5_000, 10_000, 15_000, 30_000];
const DEFAULT_WAIT_BUDGET_MS = 5 * 60_000;

/**
 * Reads the container's status until it is FINISHED and returns that state. ERROR, EXPIRED and
 * PUBLISHED throw their typed errors; a container still processing after the budget throws
 * not_ready (retryable: the container lives a day). Time is the injected clock's or, where that
 * stands still (tests), the waits asked of the injected sleep.
 */
export async function waitForContainer(
  config: ContainersConfig,
  runtime: MetaRuntime,
  token: string,
  containerId: string,
  options: WaitForContainerOptions = {},
): Promise<ContainerState> {
  const budget = options.budgetMs ?? DEFAULT_WAIT_BUDGET_MS;
  const started = runtime.now();
  let waited = 0;
  for (let poll = 0; ; poll++) {
    const state = await containerStatus(config, runtime, token, containerId, options.signal);
    options.onPoll?.(state);
    if (state.statusCode === 'FINISHED') return state;
    if (state.statusCode !== 'IN_PROGRESS') throw containerFailure(state);
    const elapsed = Math.max(runtime.now() - started, waited);
    if (elapsed >= budget) throw containerFailure(state);
    const waitMs = Math.min(POLL_WAITS_MS[Math.min(poll, POLL_WAITS_MS.length - 1)] ?? 30_000, budget - elapsed);
    await pause(runtime, 'instagram', waitMs, options.signal, 'Waiting for Instagram to process the video');
    waited += waitMs;
  }
}

/** Refusals the container's status cannot explain: passed on as they are. */
const NOT_ABOUT_THE_CONTAINER = new Set<MetaErrorKind>(['reconnect_required', 'rate_limited', 'blocked', 'config', 'aborted']);

/**
 * Publishes a FINISHED container and returns the new media id. It is sent once: when media_publish
 * is refused, fails or its answer is lost, the container's status decides: PUBLISHED means the post exists (thrown as
 * already_published: Instagram does not say which media it became), IN_PROGRESS not_ready, ERROR
 * and EXPIRED their own errors.
 */
export async function publishContainer(config: ContainersConfig, runtime: MetaRuntime, token: string, igUserId: string, containerId: string, signal?: AbortSignal): Promise<string> {
  try {
    const published = await graphRequest(
      runtime,
      {
        platform: 'instagram',
        what: 'Instagram POST /{ig-user-id}/media_publish',
        method: 'POST',
        base: config.graphUrl,
        path: `/${encodeURIComponent(igUserId)}/media_publish`,
        token,
        json: { creation_id: containerId },
        once: true,
        signal,
      },
      idSchema,
    );
    runtime.logger.info({ containerId, mediaId: published.id }, 'Instagram Reel published');
    return published.id;
  } catch (error) {
    if (!isMetaError(error) || NOT_ABOUT_THE_CONTAINER.has(error.kind)) throw error;
    const state = await containerStatus(config, runtime, token, containerId, signal).catch(() => null);
    if (!state || state.statusCode === 'FINISHED') throw error;
    const explained = containerFailure(state);
    runtime.logger.warn({ containerId, statusCode: state.statusCode, refusal: error.code }, 'Instagram refused media_publish; the container explains why');
    throw explained;
  }
}
