import { ChevronRight, ScrollText } from 'lucide-react';

/** The spoken text, folded away until asked for. */
export function ClipTranscript({ text }: { text: string }) {
  return (
    <details className="group rounded-lg border">
      <summary className="flex cursor-pointer list-none items-center gap-2 px-3 py-2.5 text-sm font-semibold select-none [&::-webkit-details-marker]:hidden">
        <ChevronRight className="size-4 text-muted-foreground transition-transform group-open:rotate-90" aria-hidden="true" />
        <ScrollText className="size-4 text-muted-foreground" aria-hidden="true" />
        Transcript
      </summary>
      <p className="max-h-60 overflow-y-auto border-t px-3 py-2.5 text-sm leading-relaxed whitespace-pre-wrap text-muted-foreground">{text}</p>
    </details>
  );
}
