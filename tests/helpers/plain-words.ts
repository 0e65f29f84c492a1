import { expect } from 'vitest';

/**
 * Text a user reads (a run's error, their log, a failed subtitle) holds plain words only: no file
 * path of the server, no stack line, no address of a server it talks to, none of `internals` (a
 * provider's raw answer, a configured URL). The server's own log keeps those.
 */
export function expectPlainWords(text: string | null | undefined, what: string, internals: readonly string[] = []): void {
  if (!text) return;
  expect(text, `${what} holds an absolute path`).not.toMatch(/(?:^|[\s(:'"=])\/[\w.@+~-]+\/[\w.@+~-]+/);
  expect(text, `${what} holds a stack line`).not.toMatch(/^\s*at /m);
  expect(text, `${what} holds an address`).not.toMatch(/\b[a-z][a-z0-9+.-]*:\/\/|\b\d{1,3}(?:\.\d{1,3}){3}\b/i);
  for (const internal of internals) expect(text, `${what} holds ${internal}`).not.toContain(internal);
}
