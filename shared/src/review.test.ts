import { describe, expect, it } from 'vitest';
import { approvalPrivacyProblem, type AccountPostSettings } from './review.ts';

const interactions = { youtube_notify_subscribers: false, disable_comment: false, disable_duet: false, disable_stitch: false };
const tiktok: AccountPostSettings = { tiktok_account_id: 't1', account: '@erin.creates', platform: 'tiktok', privacy_level: null, youtube_privacy: null, ...interactions };
const youtube: AccountPostSettings = { tiktok_account_id: 'y1', account: 'Erin on YouTube', platform: 'youtube', privacy_level: null, youtube_privacy: 'unlisted', ...interactions };

describe('approving needs each chosen account’s privacy', () => {
  it('names the first chosen account nobody set a privacy for, in the server’s words', () => {
    expect(approvalPrivacyProblem(['t1', 'y1'], [tiktok, youtube])).toBe('Choose who can see posts on @erin.creates before approving');
    expect(approvalPrivacyProblem(['y1'], [tiktok, { ...youtube, youtube_privacy: null }])).toBe('Choose who can see posts on Erin on YouTube before approving');
  });

  it('has nothing to say once chosen, or for accounts not chosen', () => {
    expect(approvalPrivacyProblem(['t1', 'y1'], [{ ...tiktok, privacy_level: 'SELF_ONLY' }, youtube])).toBeNull();
    expect(approvalPrivacyProblem(['y1'], [tiktok, youtube])).toBeNull();
    expect(approvalPrivacyProblem([], [tiktok])).toBeNull();
  });
});
