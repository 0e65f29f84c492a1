import { describe, expect, it } from 'vitest';
import type { StatusEntry, StatusMap } from '@clipshift/shared';
import { clipsOfStreamer, finishedRuns } from './run-finished';

function entry(status: string, clips = 0): StatusEntry {
  return { status, clips_downloaded: clips } as StatusEntry;
}

describe('the finished-download moment', () => {
  it('names only runs seen busy that have now completed', () => {
    const before: StatusMap = { a: entry('downloading'), b: entry('stopping'), c: entry('completed', 3), d: entry('downloading') };
    const after: StatusMap = { a: entry('completed', 4), b: entry('stopped'), c: entry('completed', 3), d: entry('downloading'), e: entry('completed', 1) };
    expect(finishedRuns(before, after)).toEqual(['a']);
  });

  it('links to the Clips screen filtered to the streamer', () => {
    expect(clipsOfStreamer('pixel queen')).toBe('/app/clips?streamer=pixel%20queen');
  });
});
