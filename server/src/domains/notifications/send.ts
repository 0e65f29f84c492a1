import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, hostOf, isPrivateAddress, PrivateAddressRefused } from './address-guard.ts';

/** The contract's limit for one try; a receiver that has not answered by then counts as failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Only this much of the receiver's answer is kept, for last_error. */
const KEPT_BODY_CHARS = 200;
/**
 * Once the status is known, the body is read for at most this long (or until KEPT_BODY_CHARS came):
 * a receiver streaming an endless error page must not turn its 500 into a time-out.
 */
const BODY_WAIT_MS = 1_000;

export interface SendOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface ReceiverAnswer {
  status: number;
  /** The start of the answer's body, for last_error when the status is not 2xx. */
  body: string;
}

/**
 * POSTs one body to a receiver. Redirects are not followed (a 3xx is the answer): following one
 * would let a public receiver send us on to a private address. Names are resolved through
 * guardedLookup unless private receivers are allowed.
 */
export function postToReceiver(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<ReceiverAnswer> {
  const target = new URL(url);
  const host = hostOf(target);
  if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) return Promise.reject(new PrivateAddressRefused(host));
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  // A timer of our own rather than AbortSignal.timeout(): AbortSignal.any holds its sources weakly,
  // so an inline timeout signal can be garbage-collected before it fires and a receiver that never
  // answers would hold the try forever (seen under memory pressure). The timer keeps it alive.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('timeout')), timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline.signal, options.signal]) : deadline.signal;
  const client = target.protocol === 'https:' ? https : http;
  const answer = new Promise<ReceiverAnswer>((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Clipshift-Webhook/1', ...headers },
        signal,
        ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (response) => {
        readAnswerStart(response).then(resolve, reject);
      },
    );
    request.on('error', (error: Error) => {
      if (signal.aborted && !(options.signal?.aborted ?? false)) reject(new Error(`The receiver did not answer within ${Math.round(timeoutMs / 1000)} s`));
      else reject(error);
    });
    request.end(body);
  });
  return answer.finally(() => clearTimeout(timer));
}

/**
 * The status and the start of the body: the answer ends once the body has ended, KEPT_BODY_CHARS
 * have come or BODY_WAIT_MS have passed, whichever is first; the rest is not read (the connection
 * is closed instead). A body that breaks off still leaves the status to report.
 */
function readAnswerStart(response: IncomingMessage): Promise<ReceiverAnswer> {
  return new Promise((resolve) => {
    let kept = '';
    const settle = () => {
      clearTimeout(timer);
      resolve({ status: response.statusCode ?? 0, body: kept });
      if (!response.complete) response.destroy();
    };
    const timer = setTimeout(settle, BODY_WAIT_MS);
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      kept += chunk.slice(0, KEPT_BODY_CHARS - kept.length);
      if (kept.length >= KEPT_BODY_CHARS) settle();
    });
    response.on('end', settle);
    response.on('close', settle);
    response.on('error', settle);
  });
}

/** Words for a failed try: why it could not be sent, or what the receiver answered. */
export function describeFailure(error: unknown): string {
  if (error instanceof PrivateAddressRefused) return error.message;
  const cause = error as NodeJS.ErrnoException;
  if (cause.code === 'ECONNREFUSED') return 'The receiver refused the connection';
  if (cause.code === 'ENOTFOUND' || cause.code === 'EAI_AGAIN') return `The receiver's name could not be resolved (${cause.code})`;
  if (cause.code === 'ECONNRESET') return 'The receiver closed the connection without answering';
  return cause.message || String(error);
}
