import { useEffect, useRef, useState } from 'react';
import { CircleAlert } from 'lucide-react';
import { MIN_TRIM_SECONDS, type Clip } from '@clipshift/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { versionedUrl } from '@/lib/media-url';
import { cn } from '@/lib/utils';
import { SectionHeader, SwitchField } from './studio-controls';
import { sectionIsOwn } from './studio-draft';
import { formatSeconds, TrimTimeline } from './trim-timeline';
import type { StudioEditor } from './use-studio-editor';

type PlayerClip = Pick<Clip, 'video_url' | 'updated_at' | 'thumbnail' | 'title' | 'format_type' | 'duration' | 'trim_start' | 'trim_end'>;

/**
 * The clip's current video, and where it is on the source's timeline: the video starts at the
 * rendered trim start. Pauses when the section goes away.
 */
function usePlayer(clip: PlayerClip) {
  const ref = useRef<HTMLVideoElement>(null);
  const [currentTime, setCurrentTime] = useState<number | null>(null);
  useEffect(() => {
    const video = ref.current;
    return () => video?.pause();
  }, []);
  const playhead = currentTime === null ? null : Math.min(clip.duration, clip.trim_start + currentTime);
  return { ref, playhead, onTimeUpdate: () => setCurrentTime(ref.current?.currentTime ?? null) };
}

export function TrimSection({ editor, clip }: { editor: StudioEditor; clip: PlayerClip }) {
  const { mode, draft, values } = editor;
  const player = usePlayer(clip);
  const duration = clip.duration;
  const setTrim = (start: number, end: number) => editor.patch({ trim_start: start, trim_end: end });
  const here = player.playhead;
  const length = values.trim_end - values.trim_start;
  const vertical = clip.format_type === 'vertical';
  return (
    <section className="space-y-5" aria-label="Trim">
      <SectionHeader
        title="Trim"
        description={`The part of the clip to keep, at least ${MIN_TRIM_SECONDS} s. Play the video and set the ends at the playhead, or drag the handles.`}
        mode={mode}
        own={sectionIsOwn(draft, 'trim')}
        onReset={() => editor.reset('trim')}
      />
      {/* eslint-disable-next-line jsx-a11y-x/media-has-caption -- a clip as it came from Twitch has no caption file to point a <track> at; its subtitles are what the studio edits, as text (decision 0029). */}
      <video
        ref={player.ref}
        src={versionedUrl(clip.video_url, clip.updated_at)}
        poster={versionedUrl(clip.thumbnail, clip.updated_at)}
        controls
        playsInline
        preload="metadata"
        aria-label={`Video: ${clip.title}`}
        data-testid="studio-video"
        onTimeUpdate={player.onTimeUpdate}
        onSeeked={player.onTimeUpdate}
        className={cn('mx-auto block rounded-lg bg-black object-contain', vertical ? 'aspect-[9/16] h-[min(50vh,28rem)] w-auto max-w-full' : 'aspect-video w-full')}
      />
      <TrimTimeline duration={duration} start={values.trim_start} end={values.trim_end} onChange={setTrim} playhead={here} rendered={{ start: clip.trim_start, end: clip.trim_end }} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm tabular-nums" data-testid="trim-values">
          <div className="flex gap-1.5">
            <dt className="text-muted-foreground">Start</dt>
            <dd>{formatSeconds(values.trim_start)}</dd>
          </div>
          <div className="flex gap-1.5">
            <dt className="text-muted-foreground">End</dt>
            <dd>{formatSeconds(values.trim_end)}</dd>
          </div>
          <div className="flex gap-1.5">
            <dt className="text-muted-foreground">Length</dt>
            <dd>{length.toFixed(1)} s</dd>
          </div>
        </dl>
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" size="sm" disabled={here === null || here >= values.trim_end} onClick={() => here !== null && setTrim(Math.round(here * 10) / 10, values.trim_end)}>
            Set start here
          </Button>
          <Button type="button" variant="outline" size="sm" disabled={here === null || here <= values.trim_start} onClick={() => here !== null && setTrim(values.trim_start, Math.round(here * 10) / 10)}>
            Set end here
          </Button>
        </div>
      </div>
      {values.trim_start > 0 || values.trim_end < duration ? null : <p className="text-xs text-muted-foreground">The whole clip is kept.</p>}
    </section>
  );
}

/** Loudness normalisation, on by default. */
export function AudioSection({ editor }: { editor: StudioEditor }) {
  const { mode, draft, values } = editor;
  return (
    <section className="space-y-4" aria-label="Audio">
      <SectionHeader title="Audio" description="Loudness of the rendered video." mode={mode} own={sectionIsOwn(draft, 'audio')} onReset={() => editor.reset('audio')} />
      <SwitchField
        label="Normalise loudness"
        description="Evens out the volume to -14 LUFS with peaks below -1 dBTP, as TikTok and YouTube play it."
        checked={values.normalize_audio}
        onChange={(checked) => editor.set('normalize_audio', checked)}
      />
    </section>
  );
}

/** Why the draft cannot be saved, above the Save button. */
export function DraftProblem({ problem }: { problem: string | null }) {
  if (!problem) return null;
  return (
    <Alert variant="destructive" role="alert" data-testid="draft-problem">
      <CircleAlert aria-hidden="true" />
      <span>{problem}</span>
    </Alert>
  );
}
