import { describe, expect, it } from 'vitest';
import type { CreatorOptions } from '@clipshift/shared';
import {
  ALL_INTERACTIONS_ALLOWED,
  combineCreatorOptions,
  deliveredAccounts,
  interactionFlags,
  isPosted,
  isPrivacyLevel,
  PRIVACY_LEVELS,
  privacyLabel,
} from './tiktok-posting';

function creator(levels: string[], disabled: Partial<Pick<CreatorOptions, 'comment_disabled' | 'duet_disabled' | 'stitch_disabled'>> = {}): CreatorOptions {
  return {
    tiktok_account_id: 'a',
    privacy_level_options: levels,
    comment_disabled: false,
    duet_disabled: false,
    stitch_disabled: false,
    max_video_post_duration_sec: 600,
    nickname: null,
    ...disabled,
  };
}

describe('privacy levels and creator options', () => {
  it('lists TikTok’s four levels with their words', () => {
    expect(PRIVACY_LEVELS).toEqual(['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY']);
    expect(PRIVACY_LEVELS.map(privacyLabel)).toEqual(['Everyone', 'Friends (followers you follow back)', 'Followers', 'Only me']);
    expect(isPrivacyLevel('SELF_ONLY')).toBe(true);
    expect(isPrivacyLevel('EVERYONE')).toBe(false);
  });

  it('offers every level and locks nothing until an account is chosen', () => {
    expect(combineCreatorOptions([], true)).toEqual({ privacyLevels: null, locked: { comments: false, duet: false, stitch: false }, loading: true });
  });

  it('offers the levels every chosen account offers, in TikTok’s order, and locks what any account turned off', () => {
    const limits = combineCreatorOptions(
      [creator(['SELF_ONLY', 'PUBLIC_TO_EVERYONE', 'FOLLOWER_OF_CREATOR'], { duet_disabled: true }), creator(['FOLLOWER_OF_CREATOR', 'SELF_ONLY'], { stitch_disabled: true })],
      false,
    );
    expect(limits).toEqual({ privacyLevels: ['FOLLOWER_OF_CREATOR', 'SELF_ONLY'], locked: { comments: false, duet: true, stitch: true }, loading: false });
  });

  it('turns the allowed interactions into the post’s disable flags', () => {
    expect(interactionFlags(ALL_INTERACTIONS_ALLOWED)).toEqual({ disable_comment: false, disable_duet: false, disable_stitch: false });
    expect(interactionFlags({ comments: false, duet: true, stitch: false })).toEqual({ disable_comment: true, disable_duet: false, disable_stitch: true });
  });
});

describe('where a clip has been posted', () => {
  const clip = (statuses: [string, string][]) => ({ posted_to: statuses.map(([account, status]) => ({ account, status, percent: null, platform: 'tiktok' as const, external_id: null, stats: null, warning: null })) });

  it('counts a published clip and one waiting in the inbox as posted, nothing else', () => {
    expect(isPosted(clip([]))).toBe(false);
    expect(isPosted(clip([['@a', 'failed'], ['@b', 'uploading']]))).toBe(false);
    expect(isPosted(clip([['@a', 'sent_to_inbox']]))).toBe(true);
    expect(deliveredAccounts(clip([['@a', 'published'], ['@b', 'failed'], ['@c', 'sent_to_inbox']]))).toBe('@a, @c');
  });
});
