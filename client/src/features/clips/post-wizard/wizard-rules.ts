import { DESCRIPTION_MAX_LENGTH, POST_WIZARD_STEPS, type TikTokAccount } from '@clipshift/shared';
import type { PrivacyLevel } from '../shared/tiktok-posting';

/** The four steps of spec section 2, in order. */
export const WIZARD_STEPS = ['Clip Preview', 'Add Description', 'Select Accounts', 'Review & Post'] as const;
export type WizardStep = 1 | 2 | 3 | 4;
export const LAST_STEP = POST_WIZARD_STEPS as WizardStep;

export function stepLabel(step: WizardStep): string {
  return WIZARD_STEPS[step - 1] ?? '';
}

/** Step 2: a non-blank description within TikTok's 2200 characters. */
function descriptionReady(text: string): boolean {
  return text.trim().length > 0 && text.length <= DESCRIPTION_MAX_LENGTH;
}

/** An account that needs reconnecting cannot post, so it cannot be chosen. */
export function canPostWith(account: Pick<TikTokAccount, 'needs_reconnect'>): boolean {
  return !account.needs_reconnect;
}

interface AccountsChoice {
  /** undefined while loading or after a failed load. */
  accounts: readonly TikTokAccount[] | undefined;
  selectedIds: readonly string[];
  privacy: PrivacyLevel | null;
}

/**
 * Step 3 (spec section 4): no accounts exist, or at least one is chosen. With accounts, TikTok's
 * guidelines add the privacy level, which has no default and must be chosen.
 */
function accountsReady({ accounts, selectedIds, privacy }: AccountsChoice): boolean {
  if (!accounts) return false;
  if (accounts.length === 0) return true;
  return selectedIds.length > 0 && privacy !== null;
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
