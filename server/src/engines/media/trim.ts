/** A section of the source in seconds; the render starts at `start` and lasts `end - start`. */
export interface Trim {
  start: number;
  end: number;
}

/** Input seeking (fast; exact since every render re-encodes) and the section's length. */
export function trimInputArgs(trim: Trim | null | undefined): string[] {
  if (!trim) return [];
  return ['-ss', trim.start.toFixed(3), '-t', (trim.end - trim.start).toFixed(3)];
}

/** The output's length: the section's, or the whole source's. */
export function outputDuration(sourceDurationSec: number, trim: Trim | null | undefined): number {
  return trim ? trim.end - trim.start : sourceDurationSec;
}
