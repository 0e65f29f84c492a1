import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Captions, CircleAlert, Eraser, LoaderCircle, RotateCcw, Save, ScrollText, Undo2 } from 'lucide-react';
import { IDLE_RENDER, languageLabel, transcriptProblem, type ClipTranscript } from '@clipshift/shared';
import { useFreshClipDetails } from '@/api/clips';
import { loadFailureDescription } from '@/api/errors';
import { useSubtitleGeneration } from '@/api/subtitles';
import { transcriptMessages, useClipTranscript, useReloadTranscript, useSaveTranscript } from '@/api/transcript';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyState } from '@/components/empty-state';
import { LoadFailed } from '@/components/load-failed';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { plural } from '@/lib/format';
import { useTranscriptDraft } from './use-transcript-draft';
import { ActiveWord, WordChip } from './word-chips';
import { countFillers, deleteFillers, deleteWord, formatWordTime, groupLines, mergeWithNext, replaceText, splitWord } from './word-edits';

interface TranscriptEditorProps {
  clipId: string;
  /** The source's length: words must lie inside it. */
  durationSec: number;
}

/**
 * Speech recognition as a clip's subtitles are made from it, for the clip's subtitle work: starting
 * it and telling whether it runs. The transcript reloads when it has written a new one.
 */
function useTranscription(clipId: string) {
  const reload = useReloadTranscript();
  const { generate, isGenerating, callsRunning } = useSubtitleGeneration(reload);
  const details = useFreshClipDetails(clipId, callsRunning);
  const target = { clip_id: clipId, render: details.data?.render ?? IDLE_RENDER };
  return {
    running: isGenerating(target),
    transcribe: (retranscribe: boolean) => generate(target, { retranscribe }),
  };
}

/**
 * The clip's words with their times, to fix before the next render burns them: edit a word's text,
 * merge, split or delete words, delete fillers in bulk, undo, save; or transcribe the clip again.
 */
export function TranscriptEditor({ clipId, durationSec }: TranscriptEditorProps) {
  const query = useClipTranscript(clipId);
  const transcription = useTranscription(clipId);

  if (query.isSuccess) {
    // A new transcript from the server (saved, or transcribed again) starts a fresh draft.
    return <TranscriptWorkspace key={query.dataUpdatedAt} clipId={clipId} durationSec={durationSec} transcript={query.data} transcription={transcription} />;
  }
  let body;
  if (query.isPending) {
    body = (
      <div className="space-y-3" aria-busy="true" aria-label="Loading transcript">
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  } else if (query.missing) {
    body = (
      <EmptyState
        icon={ScrollText}
        title="No transcript yet"
        description="Generate subtitles to get the clip’s words with their times, then fix them here."
        action={
          <Button type="button" variant="brand" disabled={transcription.running} onClick={() => transcription.transcribe(false)}>
            {transcription.running ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Captions aria-hidden="true" />}
            {transcription.running ? 'Generating subtitles…' : 'Generate subtitles'}
          </Button>
        }
      />
    );
  } else {
    body = <LoadFailed icon={ScrollText} title={transcriptMessages.loadFailed} description={loadFailureDescription(query.error)} onRetry={() => void query.refetch()} />;
  }
  return (
    <TranscriptCard>
      <CardHeader>
        <CardTitle id="transcript-title">Transcript</CardTitle>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </TranscriptCard>
  );
}

/** The editor's frame in every state: a region named by its "Transcript" heading. */
function TranscriptCard({ children, onKeyDown }: { children: ReactNode; onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void }) {
  return (
    <Card className="gap-4" role="region" aria-labelledby="transcript-title" onKeyDown={onKeyDown}>
      {children}
    </Card>
  );
}

interface WorkspaceProps {
  clipId: string;
  durationSec: number;
  transcript: ClipTranscript;
  transcription: ReturnType<typeof useTranscription>;
}

function TranscriptWorkspace({ clipId, durationSec, transcript, transcription }: WorkspaceProps) {
  const { words, apply, undo, canUndo, dirty } = useTranscriptDraft(transcript.words);
  const [active, setActive] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const listRef = useRef<HTMLDivElement>(null);
  const { save, saving } = useSaveTranscript(clipId, setError);
  const busy = saving || transcription.running;
  const fillers = countFillers(words);

  // A word that was closed gives the focus back to its chip (or to the word now in its place).
  const [focusAfter, setFocusAfter] = useState<number | null>(null);
  useEffect(() => {
    if (focusAfter === null) return;
    const chips = listRef.current?.querySelectorAll<HTMLElement>('[data-word-index]');
    if (chips && chips.length > 0) chips[Math.min(focusAfter, chips.length - 1)]?.focus();
    setFocusAfter(null);
  }, [focusAfter]);

  const change = useCallback(
    (edit: Parameters<typeof apply>[0]) => {
      apply(edit);
      setError(null);
    },
    [apply],
  );
  const undoLast = () => {
    setActive(null);
    setError(null);
    undo();
  };
  const close = (index: number) => {
    setActive(null);
    setFocusAfter(index);
  };

  const submit = () => {
    setActive(null);
    const problem = transcriptProblem(words, durationSec);
    if (problem) setError(problem);
    else save([...words]);
  };

  const keyDown = (event: KeyboardEvent<HTMLElement>) => {
    const typing = event.target instanceof HTMLInputElement;
    if (!typing && (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z' && canUndo) {
      event.preventDefault();
      undoLast();
    }
  };

  return (
    <TranscriptCard onKeyDown={keyDown}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle id="transcript-title">Transcript</CardTitle>
            {transcript.edited && <Badge variant="brand">Edited</Badge>}
            {dirty && <Badge variant="warning">Unsaved changes</Badge>}
          </div>
          <CardDescription>
            {plural(words.length, 'word')}
            {transcript.language && ` · ${languageLabel(transcript.language)}`} · The next render burns these words.
          </CardDescription>
        </div>
        <CardAction className="min-w-0 shrink flex-wrap">
          <Button type="button" variant="outline" size="sm" disabled={!canUndo || busy} onClick={undoLast}>
            <Undo2 aria-hidden="true" />
            Undo
          </Button>
          <Button type="button" variant="outline" size="sm" disabled={fillers === 0 || busy} onClick={() => (setActive(null), change(deleteFillers))}>
            <Eraser aria-hidden="true" />
            Delete fillers ({fillers})
          </Button>
          <Button type="button" variant="outline" size="sm" disabled={busy} onClick={() => setConfirming(true)}>
            {transcription.running ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <RotateCcw aria-hidden="true" />}
            {transcription.running ? 'Transcribing…' : 'Transcribe again'}
          </Button>
          <Button type="button" variant="brand" size="sm" disabled={!dirty || busy} onClick={submit}>
            {saving ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
            {saving ? 'Saving…' : 'Save'}
          </Button>
        </CardAction>
      </CardHeader>

      <CardContent className="space-y-3">
        {error && (
          <Alert variant="destructive" role="alert">
            <CircleAlert aria-hidden="true" />
            <span>{error}</span>
          </Alert>
        )}
        {words.length === 0 ? (
          <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">No words left: the clip will have no captions.</p>
        ) : (
          <div ref={listRef}>
            <p id="transcript-help" className="mb-2 text-xs text-muted-foreground">
              Press a word to fix it, merge it with the next, split or delete it. A pause starts a new line.
            </p>
            <ol aria-label="Transcript lines" aria-describedby="transcript-help" className="max-h-[28rem] space-y-3 overflow-y-auto pr-1">
              {groupLines(words).map((line) => {
                const first = words[line[0] ?? 0];
                return (
                  <li key={line[0]} className="flex flex-wrap items-start gap-1.5">
                    <span className="sr-only">Line at {first ? formatWordTime(first.start) : ''}: </span>
                    {line.map((index) => {
                      const word = words[index];
                      if (!word) return null;
                      if (index === active) {
                        return (
                          <ActiveWord
                            key={`${index}-${word.start}-${word.text}`}
                            word={word}
                            index={index}
                            hasNext={index < words.length - 1}
                            onCommit={(text) => {
                              change((current) => replaceText(current, index, text));
                              close(index);
                            }}
                            onCancel={() => close(index)}
                            onMerge={(text) => change((current) => mergeWithNext(replaceText(current, index, text), index))}
                            onSplit={(text) => change((current) => splitWord(replaceText(current, index, text), index))}
                            onDelete={() => {
                              change((current) => deleteWord(current, index));
                              close(index);
                            }}
                          />
                        );
                      }
                      return <WordChip key={`${index}-${word.start}`} word={word} index={index} disabled={busy} onOpen={setActive} />;
                    })}
                  </li>
                );
              })}
            </ol>
          </div>
        )}
      </CardContent>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Transcribe again?"
        description={
          transcript.edited || dirty
            ? 'Speech recognition listens to the clip again and writes new words and captions. Your edits to this transcript are replaced and cannot be recovered.'
            : 'Speech recognition listens to the clip again and writes new words and captions.'
        }
        confirmLabel="Transcribe again"
        destructive={transcript.edited || dirty}
        onConfirm={() => {
          setConfirming(false);
          transcription.transcribe(true);
        }}
      />
    </TranscriptCard>
  );
}
