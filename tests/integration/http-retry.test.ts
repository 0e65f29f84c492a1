import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../server/src/platform/logger.ts';
import {
  exponentialBackoff,
  sendWithRetries,
  serverRequestedDelayMs,
  type AttemptFailure,
  type RetryPolicy,
  type RetryRequest,
} from '../../server/src/engines/providers/http/retry.ts';
import type { ProviderRuntime } from '../../server/src/engines/providers/http/runtime.ts';

/*
 * The shared retry loop of the provider clients, driven by a fake `send`: each test says what the
 * "server" answers attempt by attempt and checks what the policy made of it. The clients' own
 * tests (twitch-client, tiktok-client, transcription, descriptions) cover the real policies.
 */

class PolicyError extends Error {
  constructor(
    readonly kind: 'aborted' | 'exhausted' | 'rate_limited',
    message: string,
    readonly failure?: AttemptFailure,
  ) {
    super(message);
  }
}

const NOW = Date.parse('2025-06-01T12:00:00Z');

function basePolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  return {
    retryMessage: 'Test request failed; retrying',
    attempts: 3,
    timeoutMs: 5_000,
    backoffMs: exponentialBackoff(500),
    tooManyRequests: 'return',
    describeAnswer: async (response) => `HTTP ${response.status}: ${await response.text()}`,
    aborted: (what) => new PolicyError('aborted', `${what} was cancelled`),
    exhausted: (what, attempts, failure) => new PolicyError('exhausted', `${what} failed after ${attempts} attempts (${failure.reason})`, failure),
    ...overrides,
  };
}

type Answer = number | Response | Error | 'hang';

/** A runtime whose sleep records instead of waiting, whose log lines are kept, and a `send` that plays `answers` in order. */
function harness(answers: Answer[], sleep?: ProviderRuntime['sleep']) {
  const sleeps: number[] = [];
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  const runtime: ProviderRuntime = {
    logger: createLogger('warn', sink),
    sleep: sleep ?? (async (ms) => void sleeps.push(ms)),
    now: () => NOW,
  };
  let sent = 0;
  const send = async (signal: AbortSignal): Promise<Response> => {
    const answer = answers[sent++];
    if (answer === undefined) throw new Error('more attempts than the test expected');
    if (answer === 'hang') return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    if (answer instanceof Error) throw answer;
    return typeof answer === 'number' ? new Response(`body ${answer}`, { status: answer }) : answer;
  };
  const request = (extra: Partial<RetryRequest> = {}): RetryRequest => ({ what: 'Test GET /thing', send, ...extra });
  const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { runtime, request, sleeps, logged, sent: () => sent };
}

function tooMany(headers: Record<string, string>): Response {
  return new Response('slow down', { status: 429, headers });
}

async function rejection(promise: Promise<unknown>): Promise<PolicyError> {
  const error: unknown = await promise.catch((reason: unknown) => reason);
  expect(error).toBeInstanceOf(PolicyError);
  return error as PolicyError;
}

describe('sendWithRetries', () => {
  it('retries 5xx answers with the policy backoff, logs each retry under the provider message, and returns the success', async () => {
    const { runtime, request, sleeps, logged, sent } = harness([503, 502, 200]);
    const response = await sendWithRetries(runtime, request(), basePolicy());
    expect(response.status).toBe(200);
    expect(sent()).toBe(3);
    expect(sleeps).toEqual([500, 1000]);
    expect(logged().map(({ msg, what, attempt, waitMs, failure }) => ({ msg, what, attempt, waitMs, failure }))).toEqual([
      { msg: 'Test request failed; retrying', what: 'Test GET /thing', attempt: 1, waitMs: 500, failure: 'HTTP 503: body 503' },
      { msg: 'Test request failed; retrying', what: 'Test GET /thing', attempt: 2, waitMs: 1000, failure: 'HTTP 502: body 502' },
    ]);
  });

  it('gives the policy error after the last attempt, or hands the last answer back when the policy says so', async () => {
    const exhausted = harness([500, 500, 503]);
    const error = await rejection(sendWithRetries(exhausted.runtime, exhausted.request(), basePolicy()));
    expect(error.message).toBe('Test GET /thing failed after 3 attempts (HTTP 503: body 503)');
    expect(error.failure?.status).toBe(503);

    const handedBack = harness([500, 500, 503]);
    const response = await sendWithRetries(handedBack.runtime, handedBack.request(), basePolicy({ returnLastAnswer: true }));
    expect(response.status).toBe(503);
    expect(handedBack.sleeps).toEqual([500, 1000]);
  });

  it('returns other statuses (4xx, and 429 when the policy leaves it to the caller) at once', async () => {
    for (const status of [404, 429]) {
      const { runtime, request, sleeps } = harness([status]);
      expect((await sendWithRetries(runtime, request(), basePolicy())).status).toBe(status);
      expect(sleeps).toEqual([]);
    }
  });

  it('retries network errors, but not when the request forbids it (token grants)', async () => {
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    const allowed = harness([refused, 200]);
    expect((await sendWithRetries(allowed.runtime, allowed.request(), basePolicy())).status).toBe(200);
    expect(allowed.sleeps).toEqual([500]);
    expect(allowed.logged()[0]?.failure).toBe('fetch failed: connect ECONNREFUSED 127.0.0.1:9');

    const forbidden = harness([refused, 200]);
    const error = await rejection(sendWithRetries(forbidden.runtime, forbidden.request({ retryNetworkErrors: false }), basePolicy()));
    expect(error.message).toBe('Test GET /thing failed after 1 attempts (fetch failed: connect ECONNREFUSED 127.0.0.1:9)');
    expect(error.failure?.cause).toBe(refused);
    expect(forbidden.sent()).toBe(1);
    expect(forbidden.sleeps).toEqual([]);
  });

  it('times each attempt out; a timeout is retried unless the policy says otherwise', async () => {
    const retried = harness(['hang', 200]);
    expect((await sendWithRetries(retried.runtime, retried.request(), basePolicy({ timeoutMs: 20 }))).status).toBe(200);
    expect(retried.logged()[0]?.failure).toBe('timed out');

    const final = harness(['hang', 200]);
    const error = await rejection(sendWithRetries(final.runtime, final.request(), basePolicy({ timeoutMs: 20, retryTimeouts: false })));
    expect(error.failure?.timedOut).toBe(true);
    expect(final.sent()).toBe(1);
  });

  it('honours Retry-After and retry-after-ms on a retried 429, up to the policy cap', async () => {
    const policy = basePolicy({ tooManyRequests: 'retry', serverDelay: { maxMs: 10_000, beyondMax: 'give_up' } });
    const seconds = harness([tooMany({ 'retry-after': '2' }), 200]);
    expect((await sendWithRetries(seconds.runtime, seconds.request(), policy)).status).toBe(200);
    expect(seconds.sleeps).toEqual([2000]);

    const millis = harness([tooMany({ 'retry-after-ms': '1500', 'retry-after': '2' }), 200]);
    await sendWithRetries(millis.runtime, millis.request(), policy);
    expect(millis.sleeps).toEqual([1500]);

    const none = harness([tooMany({}), 200]);
    await sendWithRetries(none.runtime, none.request(), policy);
    expect(none.sleeps).toEqual([500]);

    const tooLong = harness([tooMany({ 'retry-after': '60' }), 200]);
    const error = await rejection(sendWithRetries(tooLong.runtime, tooLong.request(), policy));
    expect(error.message).toBe('Test GET /thing failed after 1 attempts (HTTP 429: slow down)');
    expect(tooLong.sleeps).toEqual([]);

    const capped = harness([tooMany({ 'retry-after': '60' }), 200]);
    await sendWithRetries(capped.runtime, capped.request(), { ...policy, serverDelay: { maxMs: 30_000, beyondMax: 'wait_max' } });
    expect(capped.sleeps).toEqual([30_000]);
  });

  it('waits out 429s on a fixed schedule that does not use up attempts, then gives the rate-limit error', async () => {
    const rateLimit = {
      waitsMs: [10_000, 20_000],
      message: 'Test rate limit reached; waiting',
      exhausted: async (what: string, response: Response) => new PolicyError('rate_limited', `${what} still ${response.status}`),
    };
    const policy = basePolicy({ tooManyRequests: rateLimit });
    const recovered = harness([500, 500, 429, 500, 500, 200]);
    expect((await sendWithRetries(recovered.runtime, recovered.request(), policy)).status).toBe(200);
    expect(recovered.sleeps).toEqual([500, 1000, 10_000, 500, 1000]);
    expect(recovered.logged()[2]).toMatchObject({ msg: 'Test rate limit reached; waiting', what: 'Test GET /thing', waitMs: 10_000, wait: 1 });

    const limited = harness([429, 429, 429]);
    const error = await rejection(sendWithRetries(limited.runtime, limited.request(), policy));
    expect(error.kind).toBe('rate_limited');
    expect(error.message).toBe('Test GET /thing still 429');
    expect(limited.sleeps).toEqual([10_000, 20_000]);
  });

  it('turns the caller’s abort during a wait, during an attempt or before it into the policy’s aborted error', async () => {
    const controller = new AbortController();
    const duringWait = harness([503, 200], async (_ms, signal) => {
      controller.abort(new Error('job cancelled'));
      signal?.throwIfAborted();
    });
    const waitError = await rejection(sendWithRetries(duringWait.runtime, duringWait.request({ signal: controller.signal }), basePolicy()));
    expect(waitError.kind).toBe('aborted');
    expect(waitError.message).toBe('Test GET /thing was cancelled');
    expect(duringWait.sent()).toBe(1);

    const midAttempt = new AbortController();
    const duringAttempt = harness(['hang']);
    const pending = sendWithRetries(duringAttempt.runtime, duringAttempt.request({ signal: midAttempt.signal }), basePolicy());
    midAttempt.abort();
    expect((await rejection(pending)).kind).toBe('aborted');

    const before = harness([200]);
    expect((await rejection(sendWithRetries(before.runtime, before.request({ signal: AbortSignal.abort() }), basePolicy()))).kind).toBe('aborted');
    expect(before.sent()).toBe(0);
  });
});

describe('serverRequestedDelayMs', () => {
  it('reads retry-after-ms, then Retry-After as seconds or as an HTTP date', () => {
    expect(serverRequestedDelayMs(new Headers({ 'retry-after-ms': '250' }), NOW)).toBe(250);
    expect(serverRequestedDelayMs(new Headers({ 'retry-after': '3' }), NOW)).toBe(3000);
    expect(serverRequestedDelayMs(new Headers({ 'retry-after': new Date(NOW + 7000).toUTCString() }), NOW)).toBe(7000);
    expect(serverRequestedDelayMs(new Headers({ 'retry-after': new Date(NOW - 7000).toUTCString() }), NOW)).toBe(0);
    expect(serverRequestedDelayMs(new Headers({ 'retry-after': 'soon' }), NOW)).toBeUndefined();
    expect(serverRequestedDelayMs(new Headers(), NOW)).toBeUndefined();
  });
});
