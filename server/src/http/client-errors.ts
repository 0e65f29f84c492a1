import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorBody, ErrorCode } from '@clipshift/shared';

/*
 * Requests node's HTTP parser refuses before Express sees them: headers beyond its limit
 * (--max-http-header-size, 16 KB by default), or bytes that are not HTTP at all. Node answers them
 * with a bare status line and no body; here they get the contract's JSON error body like any other
 * refusal (rest-api.md "Errors").
 */

export const HEADERS_TOO_LARGE_MESSAGE = 'The request headers are too large';
export const UNREADABLE_REQUEST_MESSAGE = 'The request is not valid HTTP';

interface Refusal {
  status: number;
  reason: string;
  code: ErrorCode;
  message: string;
}

/** What a parser error answers, by node's error code; null for a connection that is gone or timed out (node's own answer then). */
function refusalOf(code: string | undefined): Refusal | null {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, reason: 'Request Header Fields Too Large', code: 'REQUEST_HEADER_FIELDS_TOO_LARGE', message: HEADERS_TOO_LARGE_MESSAGE };
  }
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return { status: 413, reason: 'Payload Too Large', code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' };
  if (code?.startsWith('HPE_')) return { status: 400, reason: 'Bad Request', code: 'BAD_REQUEST', message: UNREADABLE_REQUEST_MESSAGE };
  return null;
}

function rawAnswer(refusal: Refusal): string {
  const body: ErrorBody = { error: refusal.message, message: refusal.message, code: refusal.code };
  const text = JSON.stringify(body);
  return [
    `HTTP/1.1 ${refusal.status} ${refusal.reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(text)}`,
    'Connection: close',
    '',
    text,
  ].join('\r\n');
}

/**
 * Whether an answer may still be written: not when the connection is gone, nor while an answer to an
 * earlier request on it is half sent (bytes of ours would corrupt it), as node itself judges.
 */
function mayAnswer(socket: Duplex): boolean {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  return socket.writable && !inFlight?.headersSent;
}

/** Sends the answer, then closes the connection: what follows the refused bytes cannot be read. */
function answerAndClose(socket: Duplex, answer: string): void {
  socket.end(answer, () => socket.destroy());
}

/** Installs the JSON answers on a server, in place of node's bare ones. */
export function answerUnreadableRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!mayAnswer(socket)) {
      socket.destroy(error);
      return;
    }
    const refusal = refusalOf(error.code);
    // A request that timed out keeps node's own 408 (no route documents it; the client is gone anyway).
    if (refusal) answerAndClose(socket, rawAnswer(refusal));
    else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') answerAndClose(socket, 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    else socket.destroy(error);
  });
}
