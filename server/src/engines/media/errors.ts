export type MediaErrorKind = 'unavailable' | 'failed' | 'timeout' | 'aborted' | 'invalid_input' | 'empty_output';

/** A media step that failed, with a message a person can act on (the ffmpeg stderr tail attached). */
export class MediaError extends Error {
  override name = 'MediaError';
  constructor(
    message: string,
    /**
     * unavailable: the binary could not be started · failed: ffmpeg/ffprobe exited non-zero · timeout: killed at its time limit ·
     * aborted: the caller's signal fired · invalid_input: no usable video in the file ·
     * empty_output: ffmpeg succeeded but wrote nothing (e.g. a thumbnail past the end).
     */
    readonly kind: MediaErrorKind,
    /** The last lines ffmpeg/ffprobe wrote to stderr, for logs rather than for users. */
    readonly stderrTail = '',
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/**
 * The caller's AbortSignal fired. Still a MediaError of kind 'aborted', but named 'AbortError' with
 * code 'ABORT_ERR' like the platform's own abort errors, so generic abort checks see it too.
 */
export class MediaAbortError extends MediaError {
  override name = 'AbortError';
  readonly code = 'ABORT_ERR';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, 'aborted', '', options);
  }
}

export function isMediaError(error: unknown, kind?: MediaErrorKind): error is MediaError {
  return error instanceof MediaError && (kind === undefined || error.kind === kind);
}
