import { useCallback, useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { STREAMER_STUDIO_DEFAULTS, type ClipDetails, type Detection, type ClipEditChanges, type Streamer, type StreamerStudio, type UpdateStreamerInput } from '@clipshift/shared';
import { conflictMessage, HttpStatusError, isNetworkError, toastFailure } from './errors';
import { streamerMessages, useStreamerList } from './streamers';
import { apiFetch, trpc } from './trpc';
import { useDebouncedValue } from '@/lib/use-debounced-value';

/** Studio toasts the browser words itself. */
export const studioMessages = {
  saved: 'Studio settings saved',
  saveFailed: 'Failed to save studio settings',
  streamerSaved: 'Streamer defaults saved',
  applyToClips: 'Apply to clips not yet posted',
  applyFailed: 'Failed to render the clips again',
  stopAll: 'Stop',
  renderFailed: 'Failed to start the render',
  rendered: 'Rendered again: the new video is ready',
  renderEndedFailed: 'The render failed',
  stopFailed: 'Failed to stop the render',
  imageFailed: 'The image could not be loaded',
  offline: 'The server could not be reached',
} as const;

/** A dragged rectangle asks for a new preview only once it has rested this long. */
const PREVIEW_DEBOUNCE_MS = 250;
/** Scrubbing asks for frames a little more eagerly: a frame is cheap next to a preview. */
const FRAME_DEBOUNCE_MS = 120;
/** Old pictures leave memory soon: each is a blob of a full-size JPEG. */
const IMAGE_CACHE_MS = 30_000;


/** The fonts captions can use (GET /api/fonts); the same for everybody, so loaded once. */
function useCaptionFonts() {
  return trpc.fonts.list.useQuery(undefined, { staleTime: Number.POSITIVE_INFINITY });
}

/**
 * The font families to offer: the server's, with the saved one kept choosable even when it has left
 * the bundled list or the list failed to load (rather than blanking the select).
 */
export function useCaptionFontFamilies(current: string): string[] {
  const listed = useCaptionFonts().data?.map((font) => font.family) ?? [];
  return listed.includes(current) ? listed : [current, ...listed];
}

/**
 * The studio settings a clip falls back to: its streamer's, or the contract defaults when the
 * streamer is no longer registered (its clips stay in the library).
 */
export function useStreamerStudio(name: string | null): { streamer: Streamer | null; defaults: StreamerStudio; loading: boolean } {
  const list = useStreamerList();
  const streamer = name === null ? null : (list.data?.find((entry) => entry.name.toLowerCase() === name.toLowerCase()) ?? null);
  return { streamer, defaults: streamer ?? STREAMER_STUDIO_DEFAULTS, loading: list.isPending };
}

/** A streamer's clips for picking one to draw its regions on. */
export function useStreamerClips(streamer: string, enabled: boolean) {
  return trpc.clips.list.useQuery({ streamer, page: 1, limit: 20 }, { enabled });
}

/** Saves a clip's overrides (null = the streamer's); the answer replaces the cached details. */
export function useSaveClipEdit(clipId: string) {
  const utils = trpc.useUtils();
  const mutation = trpc.studio.edit.useMutation({
    onSuccess: (clip: ClipDetails) => {
      utils.clips.details.setData({ id: clipId }, clip);
      void utils.clips.list.invalidate();
    },
  });
  const { mutateAsync, isPending, error } = mutation;
  /** Resolves to the saved clip, or null after saying why it failed. */
  const save = useCallback(
    async (changes: ClipEditChanges, { quiet = false } = {}): Promise<ClipDetails | null> => {
      try {
        const clip = await mutateAsync({ id: clipId, ...changes });
        if (!quiet) toast.success(studioMessages.saved);
        return clip;
      } catch (failure) {
        toastFailure(failure, { fallback: studioMessages.saveFailed, offline: studioMessages.offline, prefixed: true });
        return null;
      }
    },
    [mutateAsync, clipId],
  );
  return { save, saving: isPending, error };
}

/**
 * The streamer's new look applied to its clips not yet posted (one re-render each, each clip showing
 * its progress), from the saved toast's action; the toast that says so can stop them all.
 */
function useApplyLook(name: string) {
  const utils = trpc.useUtils();
  const refresh = () => void utils.clips.list.invalidate();
  const stop = trpc.subtitles.stopStreamerRenders.useMutation({
    onSuccess: (result) => toast.success(result.message),
    onError: (error) => toastFailure(error, { fallback: studioMessages.stopFailed, offline: studioMessages.offline, prefixed: conflictMessage(error) === null }),
    onSettled: refresh,
  });
  const apply = trpc.subtitles.renderStreamer.useMutation({
    onSuccess: (result) => {
      if (result.queued === 0) toast.info(result.message);
      else toast.info(result.message, { action: { label: studioMessages.stopAll, onClick: () => stop.mutate({ name }) } });
    },
    onError: (error) => toastFailure(error, { fallback: studioMessages.applyFailed, offline: studioMessages.offline, prefixed: true }),
    onSettled: refresh,
  });
  const { mutate } = apply;
  return useCallback(() => mutate({ name }), [mutate, name]);
}

/** Saves a streamer's studio defaults (only the fields given change), offering to apply them to its clips not yet posted. */
export function useSaveStreamerStudio(name: string) {
  const utils = trpc.useUtils();
  const mutation = trpc.streamers.update.useMutation({ onSuccess: () => void utils.streamers.list.invalidate() });
  const { mutateAsync, isPending } = mutation;
  const applyLook = useApplyLook(name);
  const save = useCallback(
    async (changes: Omit<UpdateStreamerInput, 'name'>): Promise<Streamer | null> => {
      try {
        const saved = await mutateAsync({ name, ...changes });
        toast.success(studioMessages.streamerSaved, { action: { label: studioMessages.applyToClips, onClick: applyLook } });
        return saved;
      } catch (failure) {
        toastFailure(failure, { fallback: streamerMessages.saveFailed, offline: studioMessages.offline, prefixed: conflictMessage(failure) === null });
        return null;
      }
    },
    [mutateAsync, name, applyLook],
  );
  return { save, saving: isPending };
}

/** Renders the clip again from its source with its saved settings, and stops such a render. */
export function useClipRender(clipId: string) {
  const utils = trpc.useUtils();
  const refresh = () => void utils.clips.details.invalidate({ id: clipId });
  const start = trpc.subtitles.render.useMutation({
    onSuccess: (result) => {
      toast.info(result.message);
      refresh();
    },
    onError: (error) => {
      const conflict = conflictMessage(error);
      if (conflict) toast.info(conflict);
      else toastFailure(error, { fallback: studioMessages.renderFailed, offline: studioMessages.offline, prefixed: true });
      refresh();
    },
  });
  const stop = trpc.subtitles.stopRender.useMutation({
    onSuccess: (result) => {
      toast.success(result.message);
      refresh();
    },
    onError: (error) => {
      toastFailure(error, { fallback: studioMessages.stopFailed, offline: studioMessages.offline, prefixed: conflictMessage(error) === null });
      refresh();
    },
  });
  const { mutate: startRender, isPending: starting } = start;
  const { mutate: stopRender, isPending: stopping } = stop;
  return {
    render: useCallback(() => startRender({ id: clipId }), [startRender, clipId]),
    stop: useCallback(() => stopRender({ id: clipId }), [stopRender, clipId]),
    starting,
    stopping,
  };
}

/** What the server found of the camera, and over how many clips (a streamer's look goes over several). */
export type CameraDetection = Detection & { clips_checked?: number };

/** Whose camera is looked for: one clip's source, or a streamer's newest clips. */
export type DetectionTarget = { mode: 'clip'; clipId: string } | { mode: 'streamer'; name: string };

/**
 * What the `auto` layout would find now (POST /api/clips/{id}/detect or /api/streamers/{name}/detect):
 * nothing is saved, so it is read like a query, once per target while the page is open; `find`
 * looks again.
 */
export function useCameraDetection(target: DetectionTarget, enabled: boolean) {
  const utils = trpc.useUtils();
  const id = target.mode === 'clip' ? target.clipId : target.name.toLowerCase();
  const query = useQuery({
    queryKey: ['camera-detection', target.mode, id],
    queryFn: ({ signal }): Promise<CameraDetection> =>
      target.mode === 'clip' ? utils.client.studio.detect.mutate({ id: target.clipId }, { signal }) : utils.client.studio.detectStreamer.mutate({ name: target.name }, { signal }),
    enabled,
    staleTime: Infinity,
    retry: false,
  });
  const { refetch } = query;
  return {
    found: query.data ?? null,
    looking: query.isFetching,
    error: query.isError ? query.error : null,
    find: useCallback(() => void refetch(), [refetch]),
  };
}

/* Pictures: the source frame to draw regions on, and the preview of a render. */

/** The query key of the studio's pictures: what changes them on the server invalidates it. */
export const STUDIO_IMAGE_KEY = 'studio-image';

/** The fields POST /api/clips/{id}/preview takes besides the clip. */
export type PreviewRequest = ClipEditChanges & { t?: number };

/** A picture as a blob; a refused session is signed out by the shared query interceptor like any call. */
async function imageBlob(url: string, init: RequestInit): Promise<Blob> {
  const response = await apiFetch(url, init);
  return response.blob();
}

/** The words shown in place of a picture that could not be made: the server's 4xx message when it gave one. */
export function imageFailureText(error: unknown): string {
  if (error instanceof HttpStatusError) return error.message;
  return isNetworkError(error) ? studioMessages.offline : studioMessages.imageFailed;
}

/**
 * An object URL for a blob, revoked when the blob changes or the caller unmounts, so dragging a
 * region for a minute does not leave a hundred pictures in memory.
 */
export function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return;
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

export interface StudioImage {
  /** The latest picture (the previous one stays while the next loads); null before the first. */
  url: string | null;
  loading: boolean;
  /** Why the latest request failed; null when it did not. */
  error: unknown;
}

/** What one picture is: the route, and the JSON body of a preview. */
interface ImageRequest {
  url: string;
  body?: string;
  /** Changes when the server's picture would (saved settings, a new render). */
  version?: string;
}

/**
 * Loads a picture once `request` has rested for `delayMs`. A newer request aborts the one in
 * flight (react-query cancels a query nobody watches any more when its function took the signal).
 */
function useStudioImage(request: ImageRequest, delayMs: number, enabled: boolean): StudioImage {
  const key = JSON.stringify(request);
  const settledKey = useDebouncedValue(key, delayMs);
  const query = useQuery({
    queryKey: [STUDIO_IMAGE_KEY, settledKey],
    queryFn: ({ signal }) => {
      const settled = JSON.parse(settledKey) as ImageRequest;
      const init: RequestInit = settled.body === undefined ? { signal } : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: settled.body, signal };
      return imageBlob(settled.url, init);
    },
    enabled,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    gcTime: IMAGE_CACHE_MS,
    retry: false,
  });
  const url = useObjectUrl(query.data);
  return { url, loading: enabled && (settledKey !== key || query.isFetching), error: query.isError ? query.error : null };
}

/** The untouched source frame at `t` seconds (GET /api/clips/{id}/frame). */
export function useClipFrame(clipId: string, t: number, enabled = true): StudioImage {
  const seconds = Math.max(0, Math.round(t * 10) / 10);
  return useStudioImage({ url: `/api/clips/${encodeURIComponent(clipId)}/frame?t=${seconds}` }, FRAME_DEBOUNCE_MS, enabled);
}

/**
 * The frame at `request.t` as a render with these settings would show it (POST
 * /api/clips/{id}/preview). `version` (the clip's updated_at) makes a new picture once saved
 * settings or the transcript change on the server.
 */
export function useClipPreview(clipId: string, request: PreviewRequest, version: string, enabled = true): StudioImage {
  return useStudioImage({ url: `/api/clips/${encodeURIComponent(clipId)}/preview`, body: JSON.stringify(request), version }, PREVIEW_DEBOUNCE_MS, enabled);
}
