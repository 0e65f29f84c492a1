import { describe, expect, it } from 'vitest';
import { DESCRIPTION_MAX_LENGTH, DISCLOSURE_TYPE_NEEDED, type AccountPlatform, type ConnectedAccount } from '@clipshift/shared';
import { canAdvance, canPostWith, LAST_STEP, postReady, stepLabel, WIZARD_STEPS, type WizardFacts } from './wizard-rules';

function account(id: string, needsReconnect = false, platform: AccountPlatform = 'tiktok'): ConnectedAccount {
  return { id, platform, display_name: id, username: id, avatar_url: null, created_at: '2026-01-01T00:00:00Z', linked_streamers: [], status: needsReconnect ? 'reconnect' : 'ok', uploads_left_today: null };
}

const facts = (overrides: Partial<WizardFacts> = {}): WizardFacts => ({
  accounts: [account('a')],
  selectedIds: ['a'],
  privacy: 'SELF_ONLY',
  subtitled: true,
  description: 'A clip #one #two #three',
  ...overrides,
});

describe('the post wizard rules', () => {
  it('names the four steps of the spec', () => {
    expect(WIZARD_STEPS).toEqual(['Clip Preview', 'Add Description', 'Select Accounts', 'Review & Post']);
    expect(LAST_STEP).toBe(4);
    expect([1, 2, 3, 4].map((step) => stepLabel(step as 1 | 2 | 3 | 4))).toEqual([...WIZARD_STEPS]);
  });

  it('takes a description that is not blank and fits TikTok’s 2200 characters', () => {
    const ready = (description: string) => canAdvance(2, facts({ description }));
    expect(ready('hello')).toBe(true);
    expect(ready('   \n ')).toBe(false);
    expect(ready('x'.repeat(DESCRIPTION_MAX_LENGTH))).toBe(true);
    expect(ready('x'.repeat(DESCRIPTION_MAX_LENGTH + 1))).toBe(false);
  });

  it('lets only accounts that need no reconnect post', () => {
    expect(canPostWith(account('a'))).toBe(true);
    expect(canPostWith(account('b', true))).toBe(false);
  });

  it('goes past step 3 with no account at all, or with a chosen account and a privacy level', () => {
    const ready = (choice: Pick<WizardFacts, 'accounts' | 'selectedIds' | 'privacy'>) => canAdvance(3, facts(choice));
    expect(ready({ accounts: undefined, selectedIds: [], privacy: null })).toBe(false);
    expect(ready({ accounts: [], selectedIds: [], privacy: null })).toBe(true);
    expect(ready({ accounts: [account('a')], selectedIds: [], privacy: 'SELF_ONLY' })).toBe(false);
    expect(ready({ accounts: [account('a')], selectedIds: ['a'], privacy: null })).toBe(false);
    expect(ready({ accounts: [account('a')], selectedIds: ['a'], privacy: 'SELF_ONLY' })).toBe(true);
  });

  it('posts only to at least one chosen account', () => {
    expect(postReady({ accounts: [], selectedIds: [], privacy: null })).toBe(false);
    expect(postReady({ accounts: [account('a')], selectedIds: ['a'], privacy: 'PUBLIC_TO_EVERYONE' })).toBe(true);
  });

  it('enables Next by each step’s own condition and never on the last step', () => {
    expect(canAdvance(1, facts())).toBe(true);
    expect(canAdvance(1, facts({ subtitled: false }))).toBe(false);
    expect(canAdvance(2, facts({ description: ' ' }))).toBe(false);
    expect(canAdvance(2, facts())).toBe(true);
    expect(canAdvance(3, facts({ privacy: null }))).toBe(false);
    expect(canAdvance(3, facts())).toBe(true);
    expect(canAdvance(4, facts())).toBe(false);
  });

  it('asks each chosen platform for its own options, and holds back on preflight problems', () => {
    const both = [account('t'), account('y', false, 'youtube')];
    const ready = (choice: Partial<WizardFacts>) => canAdvance(3, facts({ accounts: both, selectedIds: ['t', 'y'], ...choice }));
    expect(ready({ privacy: 'SELF_ONLY', youtubePrivacy: null })).toBe(false);
    expect(ready({ privacy: 'SELF_ONLY', youtubePrivacy: 'unlisted' })).toBe(true);
    expect(ready({ privacy: 'SELF_ONLY', youtubePrivacy: 'unlisted', titleProblem: 'Enter a title for YouTube.' })).toBe(false);
    expect(ready({ privacy: 'SELF_ONLY', youtubePrivacy: 'unlisted', preflightProblems: 1 })).toBe(false);
    // A YouTube channel alone needs no TikTok privacy level.
    expect(ready({ selectedIds: ['y'], privacy: null, youtubePrivacy: 'public' })).toBe(true);
    expect(postReady({ accounts: both, selectedIds: ['y'], privacy: null, youtubePrivacy: 'private' })).toBe(true);
  });

  it('holds a TikTok post back while its commercial content disclosure is incomplete', () => {
    const both = [account('t'), account('y', false, 'youtube')];
    const problem = DISCLOSURE_TYPE_NEEDED;
    expect(canAdvance(3, facts({ disclosureProblem: problem }))).toBe(false);
    expect(postReady({ accounts: [account('a')], selectedIds: ['a'], privacy: 'PUBLIC_TO_EVERYONE', disclosureProblem: problem })).toBe(false);
    expect(canAdvance(3, facts({ disclosureProblem: null }))).toBe(true);
    // TikTok's disclosure means nothing to a YouTube channel alone.
    expect(canAdvance(3, facts({ accounts: both, selectedIds: ['y'], privacy: null, youtubePrivacy: 'public', disclosureProblem: problem }))).toBe(true);
  });

  it('asks nothing of Instagram and Facebook Reels but holds back collaborators the API would refuse', () => {
    const reels = [account('i', false, 'instagram'), account('f', false, 'facebook'), account('t')];
    const ready = (choice: Partial<WizardFacts>) => canAdvance(3, facts({ accounts: reels, privacy: null, ...choice }));
    expect(ready({ selectedIds: ['i', 'f'] })).toBe(true);
    expect(ready({ selectedIds: ['f'] })).toBe(true);
    expect(ready({ selectedIds: ['i'], instagramProblem: 'A Reel can invite at most 3 collaborators' })).toBe(false);
    // The Instagram options mean nothing to a Facebook Page alone, and TikTok still needs its privacy.
    expect(ready({ selectedIds: ['f'], instagramProblem: 'A Reel can invite at most 3 collaborators' })).toBe(true);
    expect(ready({ selectedIds: ['i', 't'] })).toBe(false);
    expect(postReady({ accounts: reels, selectedIds: ['i', 'f', 't'], privacy: 'PUBLIC_TO_EVERYONE' })).toBe(true);
  });
});
