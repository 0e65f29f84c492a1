import { DESCRIPTION_MAX_LENGTH, POST_WIZARD_STEPS, type AccountPlatform, type ConnectedAccount, type YouTubePrivacyStatus } from '@clipshift/shared';
import type { PrivacyLevel } from '../shared/tiktok-posting';

/** The four steps of spec section 2, in order. */
export const WIZARD_STEPS = ['Clip Preview', 'Add Description', 'Select Accounts', 'Review & Post'] as const;
export type WizardStep = 1 | 2 | 3 | 4;
export const LAST_STEP = POST_WIZARD_STEPS as WizardStep;

/** Who may watch a YouTube video (shared/youtube.ts); no default is chosen for the user. */
export type YouTubePrivacy = YouTubePrivacyStatus;

export function stepLabel(step: WizardStep): string {
  return WIZARD_STEPS[step - 1] ?? '';
}

/** Step 2: a non-blank description within TikTok's 2200 characters. */
function descriptionReady(text: string): boolean {
  return text.trim().length > 0 && text.length <= DESCRIPTION_MAX_LENGTH;
}

/** An account that needs reconnecting cannot post, so it cannot be chosen. */
export function canPostWith(account: Pick<ConnectedAccount, 'status'>): boolean {
  return account.status === 'ok';
}

/** The platforms of the chosen accounts. */
export function platformsOf(accounts: readonly Pick<ConnectedAccount, 'platform'>[]): Set<AccountPlatform> {
  return new Set(accounts.map((account) => account.platform));
}

export interface AccountsChoice {
  /** undefined while loading or after a failed load. */
  accounts: readonly ConnectedAccount[] | undefined;
  selectedIds: readonly string[];
  /** TikTok's privacy level: needed once a TikTok account is chosen. */
  privacy: PrivacyLevel | null;
  /** YouTube's privacy: needed once a YouTube channel is chosen. */
  youtubePrivacy?: YouTubePrivacy | null;
  /** The YouTube title's problem, if any (blank, too long). */
  titleProblem?: string | null;
  /** How many preflight problems the chosen platforms have with the video. */
  preflightProblems?: number;
  /** Why TikTok's commercial content disclosure is not complete (shared disclosureProblem), if it is not. */
  disclosureProblem?: string | null;
  /** Why the API would refuse the Instagram options (collaborators), if it would. */
  instagramProblem?: string | null;
}

/**
 * Step 3 (spec section 4): no accounts exist, or at least one is chosen with each chosen platform's
 * required options (TikTok's and YouTube's privacy have no default; Instagram's and Facebook's Reels
 * are public, with nothing required) and no preflight problem.
 */
function accountsReady(choice: AccountsChoice): boolean {
  const { accounts, selectedIds, privacy, youtubePrivacy = null, titleProblem = null, preflightProblems = 0, disclosureProblem = null, instagramProblem = null } = choice;
  if (!accounts) return false;
  if (accounts.length === 0) return true;
  const chosen = accounts.filter((account) => selectedIds.includes(account.id));
  if (chosen.length === 0) return false;
  const platforms = platformsOf(chosen);
  if (platforms.has('tiktok') && (privacy === null || disclosureProblem !== null)) return false;
  if (platforms.has('youtube') && (youtubePrivacy === null || titleProblem !== null)) return false;
  if (platforms.has('instagram') && instagramProblem !== null) return false;
  return preflightProblems === 0;
}

/** Posting: step 3's condition with at least one account to post to (none connected: nothing to post to). */
export function postReady(choice: AccountsChoice): boolean {
  return choice.selectedIds.length > 0 && accountsReady(choice);
}

export interface WizardFacts extends AccountsChoice {
  subtitled: boolean;
  description: string;
}

/** Whether Next is enabled at a step (spec section 4). */
export function canAdvance(step: WizardStep, facts: WizardFacts): boolean {
  switch (step) {
    case 1:
      return facts.subtitled;
    case 2:
      return descriptionReady(facts.description);
    case 3:
      return accountsReady(facts);
    case 4:
      return false;
  }
}
