/*
 * Placeholder until the transcript editor lands (helper C2 owns this file): the studio renders it
 * in its Transcript tab. Replace this file whole with the real editor.
 */
export function TranscriptEditor({ clipId, durationSec }: { clipId: string; durationSec: number }) {
  return (
    <p className="text-sm text-muted-foreground" data-clip={clipId} data-duration={durationSec}>
      The transcript editor is coming soon.
    </p>
  );
}
