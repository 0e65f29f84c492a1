import { useCallback, useRef, useState } from 'react';
import { toast } from 'sonner';
import { ALREADY_GENERATING_SUBTITLES, isRenderActive, SUBTITLE_INFO_TOAST_MS, type Clip } from '@clipshift/shared';
import { toastTiming } from '@/lib/toast-timing';
import { conflictMessage, toastFailure } from './errors';
import { preferencesToSend } from './settings';
import { trpc } from './trpc';
import { useLatestRef } from '@/lib/use-latest-ref';

/** Subtitle toasts of spec section 8 that the browser words itself. */
const subtitleMessages = {
  started: 'Generating subtitles for clip. This may take several minutes...',
  failed: 'Failed to generate subtitles',
  unreachable: 'Failed to generate subtitles for clip',
} as const;

/** subtitles.generate answers when the work ends, which can take minutes. */
interface GenerateSubtitlesResult {
  ok: boolean;
  message: string;
  no_speech?: boolean;
}

/** The server's words for how it went; true when the clip now has subtitles. */
function reportResult(result: GenerateSubtitlesResult): boolean {
  if (result.ok) toast.success(result.message);
  else if (result.no_speech) toast.info(result.message);
  else toast.error(result.message ? `Error: ${result.message}` : subtitleMessages.failed);
  return result.ok;
}

function reportError(error: unknown): void {
  // Another tab (or a scheduled run) is already on it: the same info as a second click here.
  const conflict = conflictMessage(error);
  if (conflict) toast.info(conflict);
  else toastFailure(error, { fallback: subtitleMessages.failed, offline: subtitleMessages.unreachable, prefixed: true });
}

interface GenerateOptions {
  /** Speech recognition runs again and its words replace an edited transcript. */
  retranscribe?: boolean;
}

/** What the generating state is read from: the clip's id and the server's word on its job. */
type SubtitleTarget = Pick<Clip, 'clip_id' | 'render'>;

/**
 * Subtitle generation for any number of clips at once (spec section 4). A clip is generating while
 * this page's call for it runs or while the server says its job is queued or running (so the state
 * survives leaving the screen and reloads); asking again meanwhile only says so. `onGenerated` runs
 * after a success with the clip's id (the latest callback, even minutes later).
 */
export function useSubtitleGeneration(onGenerated: (clipId: string) => void) {
  const utils = trpc.useUtils();
  const [generating, setGenerating] = useState<ReadonlySet<string>>(new Set());
  // Read synchronously, so two quick clicks cannot both start.
  const running = useRef(new Set<string>());
  const onGeneratedRef = useLatestRef(onGenerated);

  const setRunning = useCallback((clipId: string, on: boolean) => {
    if (on) running.current.add(clipId);
    else running.current.delete(clipId);
    setGenerating(new Set(running.current));
  }, []);

  // Options-level callbacks run for every call, not only the latest one.
  const { mutate } = trpc.subtitles.generate.useMutation({
    onSuccess: (result, input) => {
      if (!reportResult(result)) return;
      void utils.clips.list.invalidate();
      void utils.clips.details.invalidate({ id: input.id });
      onGeneratedRef.current(input.id);
    },
    onError: reportError,
    onSettled: (_result, _error, input) => setRunning(input.id, false),
  });

  const generate = useCallback(
    (clip: SubtitleTarget, options: GenerateOptions = {}) => {
      const clipId = clip.clip_id;
      if (running.current.has(clipId) || isRenderActive(clip.render)) {
        toast.info(ALREADY_GENERATING_SUBTITLES);
        return;
      }
      setRunning(clipId, true);
      toast.info(subtitleMessages.started, toastTiming(SUBTITLE_INFO_TOAST_MS));
      mutate({ id: clipId, model: preferencesToSend().model, retranscribe: options.retranscribe });
    },
    [mutate, setRunning],
  );

  const isGenerating = useCallback((clip: SubtitleTarget) => generating.has(clip.clip_id) || isRenderActive(clip.render), [generating]);
  /** A call of this page is under way (the server may not list its job yet). */
  const callsRunning = generating.size > 0;
  return { generate, isGenerating, callsRunning };
}
