import { describe, expect, it } from 'vitest';
import { approvalCommercialProblem, type AccountPostSettings } from './review.ts';
import { postClipInput } from './posting.ts';
import {
  BRANDED_CONTENT_LABEL,
  BRANDED_CONTENT_PRIVATE,
  commercialOf,
  commercialProblem,
  DISCLOSURE_TYPE_NEEDED,
  disclosureLabels,
  disclosureProblem,
  YOUR_BRAND_LABEL,
} from './tiktok-commercial.ts';

describe('TikTok commercial content disclosure', () => {
  it('refuses branded content that only the creator may see, and nothing else', () => {
    expect(commercialProblem({ your_brand: false, branded_content: true }, 'SELF_ONLY')).toBe(BRANDED_CONTENT_PRIVATE);
    expect(commercialProblem({ your_brand: true, branded_content: true }, 'SELF_ONLY')).toBe(BRANDED_CONTENT_PRIVATE);
    expect(commercialProblem({ your_brand: true, branded_content: false }, 'SELF_ONLY')).toBeNull();
    expect(commercialProblem({ branded_content: true }, 'PUBLIC_TO_EVERYONE')).toBeNull();
    expect(commercialProblem({ branded_content: true }, 'MUTUAL_FOLLOW_FRIENDS')).toBeNull();
    // The post job chooses the level: checked there.
    expect(commercialProblem({ branded_content: true }, null)).toBeNull();
    expect(commercialProblem(undefined, 'SELF_ONLY')).toBeNull();
  });

  it('defaults both toggles to false on the post request', () => {
    const parsed = postClipInput.parse({ id: 'Clip', description: 'text', tiktok_commercial: {} });
    expect(parsed.tiktok_commercial).toEqual({ your_brand: false, branded_content: false });
    expect(postClipInput.parse({ id: 'Clip', description: 'text' }).tiktok_commercial).toBeUndefined();
    expect(postClipInput.safeParse({ id: 'Clip', description: 'text', tiktok_commercial: { branded_content: 'yes' } }).success).toBe(false);
  });

  it('holds posting back while the switch is on without a kind, and sends nothing while it is off', () => {
    expect(disclosureProblem({ disclose: true, your_brand: false, branded_content: false })).toBe(DISCLOSURE_TYPE_NEEDED);
    expect(disclosureProblem({ disclose: true, your_brand: true, branded_content: false })).toBeNull();
    expect(disclosureProblem({ disclose: false, your_brand: false, branded_content: false })).toBeNull();
    expect(commercialOf({ disclose: false, your_brand: true, branded_content: true })).toEqual({ your_brand: false, branded_content: false });
    expect(commercialOf({ disclose: true, your_brand: false, branded_content: true })).toEqual({ your_brand: false, branded_content: true });
  });

  it('names the labels TikTok will show', () => {
    expect(disclosureLabels({ your_brand: true, branded_content: false })).toEqual([YOUR_BRAND_LABEL]);
    expect(disclosureLabels({ your_brand: true, branded_content: true })).toEqual([YOUR_BRAND_LABEL, BRANDED_CONTENT_LABEL]);
    expect(YOUR_BRAND_LABEL).toBe('Your photo/video will be labeled as "Promotional content"');
    expect(BRANDED_CONTENT_LABEL).toBe('Your photo/video will be labeled as "Paid partnership"');
  });

  it('refuses an approval whose chosen TikTok account posts privately, ignoring YouTube', () => {
    const base = { disable_comment: false, disable_duet: false, disable_stitch: false, youtube_privacy: null, youtube_notify_subscribers: false };
    const settings: AccountPostSettings[] = [
      { ...base, tiktok_account_id: 't1', account: '@erin', platform: 'tiktok', privacy_level: 'SELF_ONLY' },
      { ...base, tiktok_account_id: 't2', account: '@sam', platform: 'tiktok', privacy_level: 'PUBLIC_TO_EVERYONE' },
      { ...base, tiktok_account_id: 'y1', account: 'Erin Plays', platform: 'youtube', privacy_level: null, youtube_privacy: 'private' },
    ];
    const branded = { your_brand: false, branded_content: true };
    expect(approvalCommercialProblem(['t1', 't2'], settings, branded)).toBe(BRANDED_CONTENT_PRIVATE);
    expect(approvalCommercialProblem(['t2', 'y1'], settings, branded)).toBeNull();
    expect(approvalCommercialProblem(['t1'], settings, { your_brand: true, branded_content: false })).toBeNull();
  });
});
