/** A media step that failed, with a message a person can act on (the ffmpeg stderr tail attached). */
export class MediaError extends Error {
  override name = 'MediaError';
  constructor(
    message: string,
    readonly kind: 'failed' | 'timeout' | 'aborted' | 'invalid_input',
    readonly stderrTail = '',
  ) {
    super(message);
  }
}

export function isMediaError(error: unknown, kind?: MediaError['kind']): error is MediaError {
  return error instanceof MediaError && (kind === undefined || error.kind === kind);
}
