import { describe, expect, it } from 'vitest';
import { defaultYouTubeTitle, mediaOf, preflight, titleProblem } from './preflight';

const vertical = { duration: 30, width: 1080, height: 1920, size_bytes: 5_000_000 };
const horizontal = { duration: 30, width: 1920, height: 1080, size_bytes: 5_000_000 };

describe('post preflight', () => {
  it('refuses a horizontal clip for YouTube only', () => {
    const problems = preflight(new Set(['tiktok', 'youtube']), horizontal, { tiktokMaxDurationSec: 600 });
    expect(problems.map((entry) => entry.platform)).toEqual(['youtube']);
    expect(problems[0]?.problems[0]).toMatch(/vertical or square/);
  });

  it('refuses a Short over 3 minutes and a TikTok post over the account limit', () => {
    const long = { ...vertical, duration: 200 };
    const problems = preflight(new Set(['tiktok', 'youtube']), long, { tiktokMaxDurationSec: 180 });
    expect(problems.map((entry) => entry.platform)).toEqual(['tiktok', 'youtube']);
  });

  it('passes a vertical clip within the limits, and checks only the chosen platforms', () => {
    expect(preflight(new Set(['tiktok', 'youtube']), vertical, { tiktokMaxDurationSec: 60 })).toEqual([]);
    expect(preflight(new Set(['tiktok']), horizontal, { tiktokMaxDurationSec: null })).toEqual([]);
  });

  it('counts a clip without known pixels by its format, and refuses an empty file on either platform', () => {
    expect(mediaOf({ output_duration: 20, format_type: 'horizontal', width: null, height: null, video_bytes: null })).toEqual({ duration: 20, width: 1920, height: 1080, size_bytes: null });
    expect(preflight(new Set(['tiktok']), { ...vertical, size_bytes: 0 }, { tiktokMaxDurationSec: null })[0]?.problems).toEqual(['The video file is empty.']);
  });

  it('checks the YouTube title and cuts the default to 100 characters', () => {
    expect(titleProblem(' ')).toMatch(/Enter a title/);
    expect(titleProblem('a'.repeat(101))).toMatch(/at most 100/);
    expect(titleProblem('a <b>')).toMatch(/< or >/);
    expect(titleProblem('Ace')).toBeNull();
    expect(defaultYouTubeTitle(`${'x'.repeat(120)}`)).toHaveLength(100);
    expect(defaultYouTubeTitle('Clutch <ace>  win')).toBe('Clutch ace win');
  });
});
