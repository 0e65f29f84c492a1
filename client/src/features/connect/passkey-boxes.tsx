import { useEffect, useRef, type ChangeEvent, type ClipboardEvent, type KeyboardEvent } from 'react';
import { PASSKEY_LENGTH } from '@clipshift/shared';
import { cn } from '@/lib/utils';
import { fillFrom, isComplete, typedChar, withChar, type PasskeyChars } from './passkey-entry';

interface PasskeyBoxesProps {
  chars: PasskeyChars;
  onChange: (chars: PasskeyChars) => void;
  /** Enter in a box while all six are filled. */
  onSubmit: () => void;
  invalid?: boolean;
  disabled?: boolean;
  describedBy?: string;
  /** Focus the first empty box when the boxes appear. */
  autoFocus?: boolean;
}

/** Six single-character boxes: typing moves on, paste fills from the box, Backspace and arrows move back and forth. */
export function PasskeyBoxes({ chars, onChange, onSubmit, invalid = false, disabled = false, describedBy, autoFocus = false }: PasskeyBoxesProps) {
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const focusBox = (index: number) => {
    const box = boxes.current[Math.min(Math.max(index, 0), PASSKEY_LENGTH - 1)];
    box?.focus();
    box?.select();
  };

  useEffect(() => {
    if (!autoFocus) return;
    const firstEmpty = boxes.current.findIndex((box) => box !== null && box.value === '');
    if (firstEmpty >= 0) boxes.current[firstEmpty]?.focus();
    // Only when the boxes appear: later focus follows the typing.
  }, [autoFocus]);

  const handleChange = (index: number, event: ChangeEvent<HTMLInputElement>) => {
    const value = event.target.value;
    if (value === '') {
      onChange(withChar(chars, index, ''));
      return;
    }
    const char = typedChar(chars[index] ?? '', value);
    if (char !== null) {
      onChange(withChar(chars, index, char));
      if (index < PASSKEY_LENGTH - 1) focusBox(index + 1);
      return;
    }
    // Several characters at once (autofill, a keyboard's suggestion): as a paste into this box.
    const filled = fillFrom(chars, index, value);
    if (filled.last < 0) return;
    onChange(filled.chars);
    focusBox(filled.last + 1);
  };

  const handlePaste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const filled = fillFrom(chars, index, event.clipboardData.getData('text'));
    if (filled.last < 0) return;
    onChange(filled.chars);
    focusBox(filled.last + 1);
  };

  const handleKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'Backspace':
        event.preventDefault();
        if (chars[index]) {
          onChange(withChar(chars, index, ''));
        } else if (index > 0) {
          onChange(withChar(chars, index - 1, ''));
          focusBox(index - 1);
        }
        break;
      case 'Delete':
        event.preventDefault();
        onChange(withChar(chars, index, ''));
        break;
      case 'ArrowLeft':
        event.preventDefault();
        focusBox(index - 1);
        break;
      case 'ArrowRight':
        event.preventDefault();
        focusBox(index + 1);
        break;
      case 'Home':
        event.preventDefault();
        focusBox(0);
        break;
      case 'End':
        event.preventDefault();
        focusBox(PASSKEY_LENGTH - 1);
        break;
      case 'Enter':
        event.preventDefault();
        if (isComplete(chars)) onSubmit();
        break;
    }
  };

  return (
    <div className="flex justify-center gap-2 sm:gap-3" data-testid="passkey-boxes">
      {chars.map((char, index) => (
        <input
          // The boxes are positions, not a list that reorders.
          key={index}
          ref={(element) => {
            boxes.current[index] = element;
          }}
          type="text"
          inputMode="text"
          autoCapitalize="characters"
          autoComplete="off"
          autoCorrect="off"
          spellCheck={false}
          aria-label={`Passkey character ${index + 1}`}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          disabled={disabled}
          value={char}
          onChange={(event) => handleChange(index, event)}
          onPaste={(event) => handlePaste(index, event)}
          onKeyDown={(event) => handleKeyDown(index, event)}
          onFocus={(event) => event.target.select()}
          className={cn(
            'h-12 w-10 rounded-md border border-input bg-background text-center font-mono text-xl font-semibold uppercase shadow-xs transition-colors outline-none sm:h-14 sm:w-12 sm:text-2xl',
            'focus-visible:border-ring focus-visible:ring-3 focus-visible:ring-ring/20 disabled:cursor-not-allowed disabled:opacity-50',
            'aria-invalid:border-danger-border aria-invalid:bg-danger-soft',
            char !== '' && 'border-brand/40',
          )}
        />
      ))}
    </div>
  );
}
