import { cleanPasskey, PASSKEY_LENGTH } from '@clipshift/shared';

/** One character per box; '' for an empty box. */
export type PasskeyChars = readonly string[];

export const EMPTY_PASSKEY: PasskeyChars = Array.from({ length: PASSKEY_LENGTH }, () => '');

/** The boxes holding `passkey` (cleaned), from the first box. */
export function charsFromPasskey(passkey: string | null): PasskeyChars {
  return fillFrom(EMPTY_PASSKEY, 0, passkey ?? '').chars;
}

export function isComplete(chars: PasskeyChars): boolean {
  return chars.length === PASSKEY_LENGTH && chars.every((char) => char !== '');
}

export function withChar(chars: PasskeyChars, index: number, char: string): PasskeyChars {
  return chars.map((current, position) => (position === index ? char : current));
}

/**
 * `text`, cleaned, written into the boxes from `index` on (as many as fit); `last` is the last box
 * written, or -1 when the cleaned text is empty.
 */
export function fillFrom(chars: PasskeyChars, index: number, text: string): { chars: PasskeyChars; last: number } {
  const cleaned = cleanPasskey(text).slice(0, PASSKEY_LENGTH - index);
  const next = chars.map((current, position) => {
    const offset = position - index;
    return offset >= 0 && offset < cleaned.length ? (cleaned[offset] ?? current) : current;
  });
  return { chars: next, last: cleaned.length > 0 ? index + cleaned.length - 1 : -1 };
}

/**
 * The character a box's new value means: typing into a box that already holds one (cursor before
 * or after it) gives two characters, of which the new one counts. Null when nothing usable was typed.
 */
export function typedChar(previous: string, value: string): string | null {
  const cleaned = cleanPasskey(value);
  if (cleaned.length === 0) return null;
  if (cleaned.length === 2 && previous !== '') return cleaned[0] === previous ? (cleaned[1] ?? null) : (cleaned[0] ?? null);
  return cleaned.length === 1 ? cleaned : null;
}
