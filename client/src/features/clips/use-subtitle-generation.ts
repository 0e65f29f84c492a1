import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { SUBTITLE_INFO_TOAST_MS } from '@clipshift/shared';
import { toastTiming } from '@/components/ui/sonner';
import { preferencesToSend } from '@/lib/processing-preferences';
import { errorCode, isNetworkError, isUnauthorizedError, serverMessage, trpc } from '@/lib/trpc';
import { clipMessages, errorText } from './clip-messages';

/** subtitles.generate answers when the work ends, which can take minutes. */
interface GenerateSubtitlesResult {
  ok: boolean;
  message: string;
  no_speech?: boolean;
}

function reportResult(result: GenerateSubtitlesResult): boolean {
  if (result.ok) {
    toast.success(clipMessages.subtitlesDone);
    return true;
  }
  if (result.no_speech) toast.info(result.message);
  else toast.error(errorText(result.message, clipMessages.subtitlesFailed));
  return false;
}

function reportError(error: unknown): void {
  if (isUnauthorizedError(error)) return; // the sign-in redirect speaks for itself
  if (isNetworkError(error)) toast.error(clipMessages.subtitlesUnreachable);
  // Another tab (or a scheduled run) is already on it: the same info as a second click here.
  else if (errorCode(error) === 'CONFLICT') toast.info(serverMessage(error) ?? clipMessages.subtitlesAlreadyRunning);
  else toast.error(errorText(serverMessage(error), clipMessages.subtitlesFailed));
}

/**
 * Subtitle generation for any number of clips at once (spec section 4). A clip stays in the
 * generating set until its call ends; asking again meanwhile only says so. `onGenerated` runs
 * after a success with the clip's id (the latest callback, even minutes later).
 */
export function useSubtitleGeneration(onGenerated: (clipId: string) => void) {
  const utils = trpc.useUtils();
  const [generating, setGenerating] = useState<ReadonlySet<string>>(new Set());
  // Read synchronously, so two quick clicks cannot both start.
  const running = useRef(new Set<string>());
  const onGeneratedRef = useRef(onGenerated);
  useEffect(() => {
    onGeneratedRef.current = onGenerated;
  }, [onGenerated]);

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
    (clipId: string) => {
      if (running.current.has(clipId)) {
        toast.info(clipMessages.subtitlesAlreadyRunning);
        return;
      }
      setRunning(clipId, true);
      toast.info(clipMessages.subtitlesStarted, toastTiming(SUBTITLE_INFO_TOAST_MS));
      mutate({ id: clipId, model: preferencesToSend().model });
    },
    [mutate, setRunning],
  );

  const isGenerating = useCallback((clipId: string) => generating.has(clipId), [generating]);
  return { generate, isGenerating };
}
