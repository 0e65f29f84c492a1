import { redactUrl } from './logger.ts';

/*
 * Why something failed, as the user who asked for it reads it (a run's error, their log, a failed
 * subtitle or post): one plain line. Errors are written by many hands (ffmpeg's stderr, a fetch's
 * cause, a provider's answer), so what only the server's operator should see is taken out here,
 * where error text becomes user text: stack lines, file paths of this machine, and the addresses of
 * the servers it talks to. The whole error still goes to the server's own log (recordLog).
 */

/** For an error whose words say nothing a user could read. */
export const UNEXPECTED_REASON = 'An unexpected error occurred (the server log has the details)';

const MAX_REASON_CHARS = 300;
const HIDDEN_ADDRESS = '(hidden address)';

/** scheme://anything: an API, a bucket, a transcription server, a signed CDN link. */
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>()]+/gi;
/** 10.0.0.5:8000, 127.0.0.1, [::1]:443: where a connection failed. */
const IP_ADDRESS_PATTERN = /\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b|\[[0-9a-f:.]+\](?::\d+)?/gi;
/** /srv/data/media/.work/…/source.mp4: two segments or more, not part of a word or a URL. */
const ABSOLUTE_PATH_PATTERN = /(?<![\w.:/-])(?:\/[\w.@+~-]+){2,}\/?/g;

/** The last segment of a path: "source.mp4" says what failed without saying where it lives. */
function fileNameOf(path: string): string {
  return path.replace(/\/+$/, '').split('/').at(-1) ?? '';
}

function firstLine(text: string): string {
  return text.split(/\r?\n/, 1)[0] ?? '';
}

/** One line of error text as a user may read it. */
export function publicText(text: string): string {
  const cleaned = redactUrl(firstLine(text))
    .replace(URL_PATTERN, HIDDEN_ADDRESS)
    .replace(IP_ADDRESS_PATTERN, HIDDEN_ADDRESS)
    .replace(ABSOLUTE_PATH_PATTERN, fileNameOf)
    .trim();
  return cleaned.length > MAX_REASON_CHARS ? `${cleaned.slice(0, MAX_REASON_CHARS - 1)}…` : cleaned;
}

/** Why `error` happened, for the user whose work it stopped. */
export function publicReason(error: unknown): string {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return publicText(text) || UNEXPECTED_REASON;
}
