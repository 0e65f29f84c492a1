import type { z } from 'zod';
import { apiFetch } from './trpc';

/**
 * A REST call of the API, for the few routes the typed tRPC client cannot name yet (they are being
 * added on the server beside this client work). Failures throw like tRPC's: an HttpStatusError with
 * the server's message, which the helpers of errors.ts read. Each caller names the tRPC procedure
 * that replaces it once the server part is merged.
 */
export async function restJson<T extends z.ZodType>(schema: T, url: string, init: RequestInit = {}): Promise<z.output<T>> {
  const headers = init.body === undefined ? init.headers : { 'content-type': 'application/json', ...init.headers };
  const response = await apiFetch(url, { ...init, headers });
  return schema.parse(await response.json());
}
