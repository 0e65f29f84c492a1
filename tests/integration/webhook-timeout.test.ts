import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postToReceiver } from '../../server/src/domains/notifications/send.ts';

/** The collector, reachable without starting node with --expose-gc. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * A receiver that never answers must cost one try of `timeoutMs`, also when the garbage collector
 * runs meanwhile: Node's AbortSignal.any holds its sources weakly, so an inline
 * AbortSignal.timeout() can be collected before it fires and the try would hang for ever.
 */
describe('a webhook try against a receiver that never answers', () => {
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hang`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('gives up after its timeout even while garbage is collected', async () => {
    const gc = collector();
    const collecting = setInterval(gc, 20);
    try {
      const outcome = await Promise.race([
        postToReceiver(url, '{}', {}, { allowPrivate: true, timeoutMs: 1_000 }).then(
          () => 'answered',
          (error: Error) => error.message,
        ),
        // The receiver never answers: without its timer the try would wait for ever (a limit only that reaches).
        new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 60 s'), 60_000).unref()),
      ]);
      expect(outcome).toBe('The receiver did not answer within 1 s');
    } finally {
      clearInterval(collecting);
    }
  });
});

/**
 * A receiver that answers 500 and then streams its body for ever: the try must report the 500 (the
 * start of its body for last_error), not read until its time limit and call it a time-out.
 */
describe('a webhook try against a receiver whose error body never ends', () => {
  let server: Server;
  let url = '';
  const streams = new Set<NodeJS.Timeout>();
  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.write(`overloaded ${'x'.repeat(300)}`);
      streams.add(setInterval(() => response.write('y'.repeat(1024)), 10));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/endless`;
  });
  afterAll(async () => {
    for (const stream of streams) clearInterval(stream);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('reports the status with the start of the body, well before its time limit', async () => {
    const answer = await postToReceiver(url, '{}', {}, { allowPrivate: true });
    expect(answer.status).toBe(500);
    expect(answer.body).toMatch(/^overloaded x+$/);
    expect(answer.body.length).toBeLessThanOrEqual(200);
  });
});
