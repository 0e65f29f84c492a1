import { ChevronRight, PencilLine, ScrollText } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { clipStudioPath } from '@/lib/paths';

/** The spoken text, folded away until asked for, with the way to correct it. */
export function ClipTranscript({ text, clipId }: { text: string; clipId: string }) {
  return (
    <details className="group rounded-lg border">
      <summary className="flex cursor-pointer list-none items-center gap-2 px-3 py-2.5 text-sm font-semibold select-none [&::-webkit-details-marker]:hidden">
        <ChevronRight className="size-4 text-muted-foreground transition-transform group-open:rotate-90" aria-hidden="true" />
        <ScrollText className="size-4 text-muted-foreground" aria-hidden="true" />
        Transcript
      </summary>
      <p className="max-h-60 overflow-y-auto border-t px-3 py-2.5 text-sm leading-relaxed whitespace-pre-wrap text-muted-foreground">{text}</p>
      <div className="border-t px-3 py-2">
        <Button asChild variant="ghost" size="sm">
          <Link to={clipStudioPath(clipId, 'transcript')}>
            <PencilLine aria-hidden="true" />
            Edit transcript
          </Link>
        </Button>
      </div>
    </details>
  );
}
