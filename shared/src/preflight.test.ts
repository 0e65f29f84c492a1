import { describe, expect, it } from 'vitest';
import { postPreflight } from './preflight.ts';

describe('postPreflight', () => {
  const vertical = { duration: 42, width: 1080, height: 1920, size_bytes: 5_000_000 };

  it('passes a vertical or square Short within 3 minutes, and an unknown picture size', () => {
    expect(postPreflight('youtube', vertical)).toEqual([]);
    expect(postPreflight('youtube', { ...vertical, width: 1080, height: 1080, duration: 180 })).toEqual([]);
    expect(postPreflight('youtube', { ...vertical, width: 0, height: 0, size_bytes: null })).toEqual([]);
  });

  it('names every reason a YouTube Short is refused, in plain words', () => {
    expect(postPreflight('youtube', { duration: 180.04, width: 1920, height: 1080, size_bytes: 257 * 1024 ** 3 })).toEqual([
      'The video is 1920×1080 (landscape); YouTube Shorts must be vertical or square.',
      'The video is 180.0 s long; YouTube Shorts can be at most 180 s (3 minutes).',
      'The video is larger than the 256 GB YouTube accepts.',
    ]);
    expect(postPreflight('youtube', { ...vertical, size_bytes: 0 })).toEqual(['The video file is empty.']);
  });

  it('leaves landscape and length to TikTok (its limit comes from the creator), checking only the size', () => {
    expect(postPreflight('tiktok', { duration: 600, width: 1920, height: 1080, size_bytes: 5_000_000 })).toEqual([]);
    expect(postPreflight('tiktok', { ...vertical, size_bytes: 5 * 1024 ** 3 })).toEqual(['The video is larger than the 4 GB TikTok accepts.']);
  });
});
