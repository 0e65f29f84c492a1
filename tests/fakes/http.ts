import type { IncomingMessage, ServerResponse } from 'node:http';

/*
 * The HTTP plumbing the provider fakes share (TikTok, YouTube): reading bodies, plain answers,
 * redirects and the queues of scripted failures. What each provider answers stays in its own fake.
 */

/** Largest JSON body a fake reads; the rest is drained unread. */
export const MAX_JSON_BODY = 1_000_000;

/** The body, at most `limit` bytes of it kept (the rest is read and dropped, so the client's write completes). */
export async function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    if (size < limit) chunks.push(buffer.subarray(0, limit - size));
    size += buffer.length;
  }
  return Buffer.concat(chunks);
}

export async function readText(req: IncomingMessage): Promise<string> {
  return (await readBytes(req, MAX_JSON_BODY)).toString('utf8');
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' }): void {
  res.writeHead(status, { ...headers, 'Content-Length': String(Buffer.byteLength(text)) });
  res.end(text);
}

/** The provider's own error page (the consent screen cannot redirect back), titled by the provider. */
export function sendPage(res: ServerResponse, status: number, message: string, title: string): void {
  const html = `<!doctype html><title>${title}</title><p>${message.replace(/[<>&]/g, '')}</p>`;
  sendText(res, status, html, { 'Content-Type': 'text/html; charset=utf-8' });
}

/** A 302 to `target` with `query` added to its own. */
export function redirect(res: ServerResponse, target: string, query: Record<string, string>): void {
  const location = new URL(target);
  for (const [key, value] of Object.entries(query)) location.searchParams.set(key, value);
  res.writeHead(302, { Location: location.toString(), 'Content-Length': '0' });
  res.end();
}

export interface QueuedFailure<F> {
  failure: F;
  remaining: number;
}

/** The next scripted failure of an endpoint, counting it down (tests script them with failNext). */
export function takeFailure<E, F>(failures: Map<E, QueuedFailure<F>[]>, endpoint: E): F | undefined {
  const queue = failures.get(endpoint);
  const head = queue?.[0];
  if (!queue || !head) return undefined;
  head.remaining--;
  if (head.remaining <= 0) queue.shift();
  return head.failure;
}
