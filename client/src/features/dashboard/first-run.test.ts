import { describe, expect, it } from 'vitest';
import { dismissedKey, doneSteps, hasPosted } from './first-run';

describe('the first-run checklist', () => {
  it('ticks each step from what the server holds', () => {
    expect([...doneSteps({ streamers: 0, clips: 0, accounts: 0, posted: false })]).toEqual([]);
    expect([...doneSteps({ streamers: 2, clips: 0, accounts: 1, posted: false })]).toEqual(['streamer', 'account']);
    expect([...doneSteps({ streamers: 1, clips: 3, accounts: 1, posted: true })]).toEqual(['streamer', 'clips', 'account', 'post']);
  });

  it('counts a post once an upload is queued or delivered, not when it failed', () => {
    const clip = (...statuses: string[]) => ({ posted_to: statuses.map((status) => ({ account: 'a', status, percent: null, platform: 'tiktok' as const, external_id: null, stats: null, warning: null })) });
    expect(hasPosted([clip(), clip('failed')])).toBe(false);
    expect(hasPosted([clip('failed'), clip('queued')])).toBe(true);
    expect(hasPosted([clip('published')])).toBe(true);
  });

  it('remembers a dismissal per user', () => {
    expect(dismissedKey('u1')).not.toBe(dismissedKey('u2'));
  });
});
