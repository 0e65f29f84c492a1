import { describe, expect, it } from 'vitest';
import { charsFromPasskey, EMPTY_PASSKEY, fillFrom, isComplete, typedChar, withChar } from './passkey-entry';

describe('the six passkey boxes', () => {
  it('start empty and fill from a cleaned passkey', () => {
    expect(EMPTY_PASSKEY).toEqual(['', '', '', '', '', '']);
    expect(charsFromPasskey(null)).toEqual(EMPTY_PASSKEY);
    expect(charsFromPasskey('ab-c12')).toEqual(['A', 'B', 'C', '1', '2', '']);
  });

  it('are complete only with six characters', () => {
    expect(isComplete(charsFromPasskey('ABC123'))).toBe(true);
    expect(isComplete(charsFromPasskey('ABC12'))).toBe(false);
  });

  it('change one box at a time', () => {
    expect(withChar(charsFromPasskey('ABC'), 1, '')).toEqual(['A', '', 'C', '', '', '']);
  });

  it('take a paste from the box it lands in, as far as the boxes go, and say where it ended', () => {
    expect(fillFrom(charsFromPasskey('A__X'.replaceAll('_', '')), 1, 'q-1')).toEqual({ chars: ['A', 'Q', '1', '', '', ''], last: 2 });
    expect(fillFrom(EMPTY_PASSKEY, 4, 'wxyz')).toEqual({ chars: ['', '', '', '', 'W', 'X'], last: 5 });
    expect(fillFrom(EMPTY_PASSKEY, 0, '--!')).toEqual({ chars: EMPTY_PASSKEY, last: -1 });
  });

  it('read a keystroke into a box that already holds a character as the new character', () => {
    expect(typedChar('', 'a')).toBe('A');
    expect(typedChar('A', 'Ab')).toBe('B');
    expect(typedChar('A', 'bA')).toBe('B');
    expect(typedChar('', '-')).toBeNull();
    expect(typedChar('', 'abc')).toBeNull();
  });
});
