import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { Check, Combine, Scissors, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { WithTooltip } from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';
import { canSplit, formatWordTime, isFiller, type Word } from './word-edits';

interface WordChipProps {
  word: Word;
  index: number;
  disabled: boolean;
  onOpen: (index: number) => void;
}

/** A word with its start time; pressing it opens the word for editing. Fillers stand out. */
export function WordChip({ word, index, disabled, onOpen }: WordChipProps) {
  const filler = isFiller(word.text);
  const empty = !word.text.trim();
  return (
    <button
      type="button"
      data-word-index={index}
      disabled={disabled}
      onClick={() => onOpen(index)}
      className={cn(
        'max-w-full cursor-pointer rounded-md border bg-background px-2 py-1 text-left shadow-xs transition-colors outline-none hover:bg-accent focus-visible:ring-3 focus-visible:ring-ring/40 disabled:cursor-not-allowed disabled:opacity-60',
        filler && 'border-dashed border-warning-border bg-warning-soft text-warning-soft-foreground',
        empty && 'border-danger-border',
      )}
    >
      <span className={cn('block text-sm leading-5 break-words', empty && 'italic text-destructive')}>{empty ? 'empty' : word.text}</span>
      <span className="block text-[11px] leading-4 text-muted-foreground tabular-nums">
        <span className="sr-only"> at </span>
        {formatWordTime(word.start)}
        {filler && <span className="sr-only"> (filler)</span>}
      </span>
    </button>
  );
}

interface ActiveWordProps {
  word: Word;
  index: number;
  hasNext: boolean;
  /** Each takes the text as typed so far, so typing then pressing an action is one change. */
  onCommit: (text: string) => void;
  onMerge: (text: string) => void;
  onSplit: (text: string) => void;
  onDelete: () => void;
  onCancel: () => void;
}

function IconAction({ label, onClick, disabled, children }: { label: string; onClick: () => void; disabled?: boolean; children: ReactNode }) {
  return (
    <WithTooltip label={label}>
      <Button type="button" variant="ghost" size="icon" className="size-8" aria-label={label} disabled={disabled} onClick={onClick}>
        {children}
      </Button>
    </WithTooltip>
  );
}

/** The open word: its text in an input, its times, and what can be done to it. */
export function ActiveWord({ word, index, hasNext, onCommit, onMerge, onSplit, onDelete, onCancel }: ActiveWordProps) {
  const [text, setText] = useState(word.text);
  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      onCommit(text);
    } else if (event.key === 'Escape') {
      // Closes the word, not the dialog or page around it.
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    }
  };
  const label = `Word ${index + 1}`;
  return (
    <div
      role="group"
      aria-label={`${label}, ${formatWordTime(word.start)} to ${formatWordTime(word.end)}`}
      className="flex w-full flex-wrap items-center gap-1 rounded-md border border-brand bg-brand-soft/40 p-1 sm:w-auto"
    >
      <input
        // eslint-disable-next-line jsx-a11y-x/no-autofocus -- the editor mounts when the user opens a word: focus follows that action, not a page load.
        autoFocus
        aria-label={`${label} text`}
        value={text}
        size={Math.max(6, Math.min(30, text.length + 2))}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={keyDown}
        onFocus={(event) => event.target.select()}
        className="h-8 min-w-0 basis-full rounded-md border border-input bg-background px-2 text-sm outline-none focus-visible:border-ring focus-visible:ring-3 focus-visible:ring-ring/20 sm:basis-auto"
      />
      <span className="px-1 text-[11px] whitespace-nowrap text-muted-foreground tabular-nums">
        {formatWordTime(word.start)}–{formatWordTime(word.end)}
      </span>
      <span className="ml-auto flex items-center sm:ml-0">
        <IconAction label="Merge with next word" disabled={!hasNext} onClick={() => onMerge(text)}>
          <Combine aria-hidden="true" />
        </IconAction>
        <IconAction label="Split word" disabled={!canSplit({ ...word, text })} onClick={() => onSplit(text)}>
          <Scissors aria-hidden="true" />
        </IconAction>
        <IconAction label="Delete word" onClick={onDelete}>
          <Trash2 aria-hidden="true" />
        </IconAction>
        <IconAction label="Done" onClick={() => onCommit(text)}>
          <Check aria-hidden="true" />
        </IconAction>
      </span>
    </div>
  );
}
