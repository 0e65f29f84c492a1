import type { AppDeps } from '../deps.ts';
import { isTwitchError, type ClipDownload, type TwitchClient } from '../../engines/providers/twitch/index.ts';
import { AppError } from '../../platform/errors.ts';
import { configuredTwitch, withTwitchSession, type TwitchSession } from './connection.ts';

/*
 * Twitch's official clip endpoints with the user's connected account (decision 0047): making a
 * clip of a moment (live, or from the VOD once the stream has ended) and fetching clip files of the
 * channels the account may edit.
 */

export type TwitchClipRequest =
  /** Clip the live stream now: Twitch takes about the last 30 seconds up to the call. */
  | { broadcasterId: string; live: true }
  /** Clip the VOD: `offsetSeconds` is where the clip STARTS in the VOD, `durationSeconds` 5–60. */
  | { broadcasterId: string; live: false; videoId: string; offsetSeconds: number; durationSeconds: number; title: string };

/** Twitch documents that a clip not listed 15 s after Create Clip failed; polled every second up to then. */
const CLIP_POLL_ATTEMPTS = 15;
const CLIP_POLL_INTERVAL_MS = 1_000;
/** Create Clip From VOD's bounds (0.1 s precision). */
const MIN_VOD_CLIP_SECONDS = 5;
const MAX_VOD_CLIP_SECONDS = 60;
/** Twitch's titles are at most 100 characters. */
const MAX_TITLE = 100;

export interface TwitchClipOptions {
  signal?: AbortSignal;
  /** Waits between polls (tests pass one that does not really wait). */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Makes a Twitch clip with the user's connected account and waits (bounded) until Get Clips lists
 * it. Throws AppError: 409 'Connect Twitch to turn moments into clips' (no connection), 409
 * 'Reconnect needed' (Twitch refused the connection), 403 (missing scope, or not an editor of the
 * channel), 404 (the channel is offline, or the VOD is gone), 429 (rate limit), 502 (anything else
 * Twitch did, or the clip never appeared).
 */
export async function createTwitchClip(deps: AppDeps, userId: string, request: TwitchClipRequest, options: TwitchClipOptions = {}): Promise<{ clipId: string }> {
  const twitch = configuredTwitch(deps);
  const { signal } = options;
  try {
    const created = await withTwitchSession(deps, userId, (session) => requestClip(twitch, session, request, signal), { signal });
    await waitUntilListed(twitch, created.id, options);
    return { clipId: created.id };
  } catch (error) {
    throw clipError(error, request);
  }
}

/** What each way of clipping needs (Create Clip: clips:edit; Create Clip From VOD: either manage scope). */
const LIVE_SCOPES = ['clips:edit'];
const VOD_SCOPES = ['editor:manage:clips', 'channel:manage:clips'];

/**
 * A scope the user did not grant is said before Twitch is asked: Twitch's answer (401) would read
 * like a dead token, and the connection would be marked for reconnection while it still works for the rest.
 */
function requireScope(session: TwitchSession, request: TwitchClipRequest): void {
  const needed = request.live ? LIVE_SCOPES : VOD_SCOPES;
  if (needed.some((scope) => session.scopes.includes(scope))) return;
  throw new AppError('FORBIDDEN', `The connected Twitch account did not grant ${needed.join(' or ')}: reconnect Twitch in Settings`);
}

function requestClip(twitch: TwitchClient, session: TwitchSession, request: TwitchClipRequest, signal: AbortSignal | undefined) {
  requireScope(session, request);
  if (request.live) return twitch.createLiveClip(session.token, request.broadcasterId, signal);
  const duration = Math.min(MAX_VOD_CLIP_SECONDS, Math.max(MIN_VOD_CLIP_SECONDS, Math.round(request.durationSeconds * 10) / 10));
  const start = Math.max(0, request.offsetSeconds);
  return twitch.createVodClip(
    session.token,
    {
      editorId: session.twitchUserId,
      broadcasterId: request.broadcasterId,
      videoId: request.videoId,
      // Twitch's vod_offset is where the clip ends (it must be at least the duration).
      vodOffset: Math.max(Math.ceil(start + duration), Math.ceil(duration)),
      duration,
      title: request.title.trim().slice(0, MAX_TITLE) || 'Clip',
    },
    signal,
  );
}

async function waitUntilListed(twitch: TwitchClient, clipId: string, options: TwitchClipOptions): Promise<void> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 1; attempt <= CLIP_POLL_ATTEMPTS; attempt++) {
    options.signal?.throwIfAborted();
    const [listed] = await twitch.getClipsByIds([clipId], options.signal);
    if (listed) return;
    if (attempt < CLIP_POLL_ATTEMPTS) await sleep(CLIP_POLL_INTERVAL_MS);
  }
  throw new AppError('BAD_GATEWAY', `Twitch accepted the clip ${clipId} but never made it (not listed after ${CLIP_POLL_ATTEMPTS} s)`);
}

/** Twitch's refusal in the user's terms; AppErrors (not connected, Reconnect needed) pass as they are. */
function clipError(error: unknown, request: TwitchClipRequest): unknown {
  if (!isTwitchError(error)) return error;
  const { kind } = error;
  if (kind === 'aborted') return error;
  if (kind === 'forbidden') {
    return new AppError('FORBIDDEN', 'Twitch refused to make the clip: the connected account lacks the clip scopes or is not an editor of this channel. Reconnect Twitch in Settings', { cause: error });
  }
  if (kind === 'not_found') {
    return new AppError('NOT_FOUND', request.live ? 'Twitch could not clip the stream: the channel is offline' : 'Twitch could not clip the stream: its VOD is not available', { cause: error });
  }
  if (kind === 'rate_limited') return new AppError('TOO_MANY_REQUESTS', 'Twitch is rate-limiting clip requests; try again in a minute', { cause: error });
  if (kind === 'bad_request') return new AppError('BAD_REQUEST', `Twitch refused the clip request: ${error.message}`, { cause: error });
  return new AppError('BAD_GATEWAY', `Twitch could not make the clip: ${error.message}`, { cause: error });
}

/** How a clip's file comes through Get Clips Download, or why it does not. */
export type OfficialClipFile =
  | { kind: 'file'; download: ClipDownload }
  /** Twitch refused the account's token or scope for this channel: GQL, and the user is told once per run. */
  | { kind: 'refused'; reason: string }
  /** Twitch listed no file for this clip (yet): GQL for this one. */
  | { kind: 'no_file' }
  /** The account is no editor of this channel: GQL, as for any channel. */
  | { kind: 'not_editor' }
  /** No usable connected account (none, or it needs reconnecting) or no file: GQL, nothing to say. */
  | { kind: 'none' };

/** Twitch's 403 for a channel the user does not edit (A6a), as opposed to a missing scope. */
const NOT_EDITOR = /not an editor/i;

/**
 * The clip's official download URLs when the user's connected account may edit the channel (its
 * own, or one it is an editor of): Twitch decides, by answering or refusing.
 */
export async function officialClipFile(deps: AppDeps, userId: string, broadcasterId: string, clipId: string, signal?: AbortSignal): Promise<OfficialClipFile> {
  if (!deps.twitch) return { kind: 'none' };
  const twitch = deps.twitch;
  try {
    const [download] = await withTwitchSession(deps, userId, (session) => twitch.getClipDownloads(session.token, session.twitchUserId, broadcasterId, [clipId], signal), {
      signal,
      refusalMayBeScope: true,
    });
    if (!download?.landscape_download_url && !download?.portrait_download_url) return { kind: 'no_file' };
    return { kind: 'file', download };
  } catch (error) {
    if (error instanceof AppError) return { kind: 'none' };
    if (isTwitchError(error, 'forbidden') && NOT_EDITOR.test(error.message)) return { kind: 'not_editor' };
    if (isTwitchError(error, 'forbidden') || isTwitchError(error, 'token_refused')) return { kind: 'refused', reason: error.message };
    if (!isTwitchError(error) || error.kind === 'aborted') throw error;
    // Twitch busy or failing: the clip still has its GQL way; nothing the user must act on.
    deps.logger.warn({ err: error, clipId }, 'Get Clips Download failed; the clip is fetched through GQL');
    return { kind: 'none' };
  }
}
