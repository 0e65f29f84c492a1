import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { ChevronDown, Clapperboard, LoaderCircle } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useStreamerClips } from '@/api/studio';
import { streamerStudioPath } from '@/lib/paths';
import { cn } from '@/lib/utils';

/**
 * "Set layout and captions from a clip…": the streamer's clips to choose from; the studio then
 * edits the streamer's defaults drawn on that clip's frame.
 */
export function StudioLink({ streamerName }: { streamerName: string }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const clips = useStreamerClips(streamerName, open);
  const list = clips.data?.clips ?? [];
  return (
    <div className="rounded-lg border">
      <Button type="button" variant="ghost" className="h-auto min-h-9 w-full justify-between px-4 py-2 text-left whitespace-normal" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
        <span className="flex items-center gap-2">
          <Clapperboard aria-hidden="true" />
          Set layout and captions from a clip…
        </span>
        <ChevronDown className={cn('transition-transform', open && 'rotate-180')} aria-hidden="true" />
      </Button>
      {open && (
        <div id={listId} className="border-t px-4 py-3">
          {clips.isPending ? (
            <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
              <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />
              Loading clips…
            </p>
          ) : clips.isError ? (
            <p className="text-sm text-destructive" role="alert">
              The clips could not be loaded.
            </p>
          ) : list.length === 0 ? (
            <p className="text-sm text-muted-foreground">No clips of this streamer yet: download some first.</p>
          ) : (
            <ul className="max-h-48 space-y-1 overflow-y-auto" aria-label={`Clips of ${streamerName}`}>
              {list.map((clip) => (
                <li key={clip.clip_id}>
                  <Link
                    to={streamerStudioPath(streamerName, clip.clip_id)}
                    className="block truncate rounded-md px-2 py-1.5 text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring/50"
                  >
                    {clip.title}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
