import { useState, type ClipboardEvent, type ComponentProps, type KeyboardEvent } from 'react';
import { X } from 'lucide-react';
import { Input } from '@/components/ui/input';

/** What adding typed or pasted text did: the new list, why some of it was refused, what stays typed. */
export interface ChipsAddition {
  terms: string[];
  problem: string | null;
  rest: string;
}

interface ChipsOptions {
  items: readonly string[];
  onChange: (items: string[]) => void;
  /** Adds text separated by commas or new lines to the list. */
  add: (items: readonly string[], typed: string) => ChipsAddition;
  /** A problem of the text still being typed (too long), shown before it is added. */
  typedProblem?: (typed: string) => string | null;
}

/**
 * The state of a chips input: type an entry and press Enter (or a comma), paste a list, remove one
 * with its × (or Backspace in the empty input); text still typed when the input loses focus is added.
 */
export function useChips({ items, onChange, add, typedProblem }: ChipsOptions) {
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const addText = (text: string) => {
    const result = add(items, text);
    if (result.terms.length !== items.length) onChange(result.terms);
    setProblem(result.problem);
    setTyped(result.rest);
  };
  const remove = (item: string) => {
    onChange(items.filter((entry) => entry !== item));
    setProblem(null);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      // Enter would submit the dialog's form; a comma is a separator, never part of an entry.
      event.preventDefault();
      addText(typed);
    } else if (event.key === 'Backspace' && typed === '' && items.length > 0) {
      remove(items[items.length - 1] ?? '');
    }
  };
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text');
    if (!/[,\n\r]/.test(text)) return;
    event.preventDefault();
    addText(`${typed},${text}`);
  };
  return {
    problem: typedProblem?.(typed) ?? problem,
    remove,
    inputProps: {
      value: typed,
      onChange: (event: { target: { value: string } }) => {
        setTyped(event.target.value);
        setProblem(null);
      },
      onKeyDown,
      onPaste,
      onBlur: () => typed.trim() && addText(typed),
    },
  };
}

interface ChipsInputProps extends Omit<ComponentProps<typeof Input>, 'value' | 'onChange' | 'onKeyDown' | 'onPaste' | 'onBlur'> {
  chips: ReturnType<typeof useChips>;
  items: readonly string[];
  /** The list's accessible name, e.g. "Glossary terms". */
  listLabel: string;
  /** Shown as "3/100" beside the input. */
  max: number;
}

export function ChipsInput({ chips, items, listLabel, max, ...input }: ChipsInputProps) {
  return (
    <div className="space-y-2">
      {items.length > 0 && (
        <ul aria-label={listLabel} className="flex flex-wrap gap-1.5">
          {items.map((item) => (
            <li key={item} className="flex max-w-full items-center gap-0.5 rounded-md border bg-secondary py-0.5 pr-0.5 pl-2 text-sm text-secondary-foreground">
              <span className="min-w-0 break-words">{item}</span>
              <button
                type="button"
                aria-label={`Remove ${item}`}
                onClick={() => chips.remove(item)}
                className="flex size-6 shrink-0 cursor-pointer items-center justify-center rounded text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-3 focus-visible:ring-ring/40"
              >
                <X className="size-3.5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex items-center gap-2">
        <Input autoComplete="off" {...input} {...chips.inputProps} />
        <span className="shrink-0 text-xs text-muted-foreground tabular-nums" aria-live="polite">
          {items.length}/{max}
        </span>
      </div>
    </div>
  );
}
