import { describe, expect, it } from 'vitest';
import { messageFromErrorBody } from './errors.ts';

describe('messageFromErrorBody', () => {
  it('prefers message, then error', () => {
    expect(messageFromErrorBody({ error: 'E', message: 'M', code: 'BAD_REQUEST' }, 400)).toBe('M');
    expect(messageFromErrorBody({ error: 'Only error' }, 400)).toBe('Only error');
    expect(messageFromErrorBody({ message: '', error: 'Fallback' }, 400)).toBe('Fallback');
  });

  it("falls back to 'HTTP error! status: N'", () => {
    expect(messageFromErrorBody(null, 502)).toBe('HTTP error! status: 502');
    expect(messageFromErrorBody('<html>', 500)).toBe('HTTP error! status: 500');
    expect(messageFromErrorBody({ message: 42 }, 404)).toBe('HTTP error! status: 404');
  });
});
