import { describe, expect, it } from 'vitest';
import { defaultYouTubeTitle, preflight, titleProblem } from './preflight';

const vertical = { duration: 30, vertical: true };
const horizontal = { duration: 30, vertical: false };

describe('post preflight', () => {
  it('refuses a horizontal clip for YouTube only', () => {
    const problems = preflight(new Set(['tiktok', 'youtube']), horizontal, { tiktokMaxDurationSec: 600 });
    expect(problems.map((entry) => entry.platform)).toEqual(['youtube']);
    expect(problems[0]?.problems[0]).toMatch(/vertical or square/);
  });

  it('refuses a Short over 3 minutes and a TikTok post over the account limit', () => {
    const long = { duration: 200, vertical: true };
    const problems = preflight(new Set(['tiktok', 'youtube']), long, { tiktokMaxDurationSec: 180 });
    expect(problems.map((entry) => entry.platform)).toEqual(['tiktok', 'youtube']);
  });

  it('passes a vertical clip within the limits, and checks only the chosen platforms', () => {
    expect(preflight(new Set(['tiktok', 'youtube']), vertical, { tiktokMaxDurationSec: 60 })).toEqual([]);
    expect(preflight(new Set(['tiktok']), horizontal, { tiktokMaxDurationSec: null })).toEqual([]);
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
