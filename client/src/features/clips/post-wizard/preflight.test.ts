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

  it('checks Reels for Instagram and Facebook in the API’s words, and Instagram’s caption', () => {
    const long = { ...vertical, duration: 120 };
    const problems = preflight(new Set(['facebook', 'instagram', 'tiktok']), long, { tiktokMaxDurationSec: null });
    expect(problems).toEqual([{ platform: 'facebook', problems: ['The video is 120 s long; Facebook Reels can be at most 90 s.'] }]);
    const wide = preflight(new Set(['instagram', 'facebook']), horizontal, { tiktokMaxDurationSec: null });
    expect(wide.map((entry) => entry.platform)).toEqual(['instagram', 'facebook']);
    expect(wide[0]?.problems).toEqual(['The video is 1920×1080; Instagram Reels must be vertical 9:16 (such as 1080×1920).']);
    const tags = Array.from({ length: 31 }, (_, index) => `#tag${index}`).join(' ');
    expect(preflight(new Set(['instagram', 'tiktok']), vertical, { tiktokMaxDurationSec: null, caption: tags })).toEqual([
      { platform: 'instagram', problems: ['The caption has 31 hashtags; Instagram allows 30.'] },
    ]);
    expect(preflight(new Set(['instagram']), vertical, { tiktokMaxDurationSec: null, caption: 'Clutch #cs2' })).toEqual([]);
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
