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
