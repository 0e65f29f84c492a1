import { useCallback, useMemo, useState } from 'react';
import type { Clip, TikTokAccount } from '@clipshift/shared';
import { usePostClip } from '@/api/posting';
import { useCreatorOptions } from '@/api/tiktok-accounts';
import { postDescription, rankedSuggestions } from '../shared/description-text';
import { ALL_INTERACTIONS_ALLOWED, combineCreatorOptions, interactionFlags, type Interactions, type PrivacyLevel } from '../shared/tiktok-posting';
import { canAdvance, canPostWith, LAST_STEP, postReady, type WizardStep } from './wizard-rules';

/**
 * The wizard's choices. It is mounted each time the dialog opens, so every opening starts at step 1
 * with no account chosen and no privacy level (spec section 4, TikTok's guidelines). Until the user
 * edits it, the description follows the clip: its saved description, else the Best Match.
 */
export function usePostWizard(clip: Clip, accounts: readonly TikTokAccount[] | undefined, onPosted: () => void) {
  const [step, setStep] = useState<WizardStep>(1);
  const [edited, setEdited] = useState<string | null>(null);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [privacy, setPrivacy] = useState<PrivacyLevel | null>(null);
  const [interactions, setInteractions] = useState<Interactions>(ALL_INTERACTIONS_ALLOWED);
  const { post, posting } = usePostClip();

  const suggestions = useMemo(() => rankedSuggestions(clip), [clip]);
  const description = edited ?? postDescription(clip, suggestions);
  // Only accounts that still exist and can post count, whatever was ticked before a reload.
  const selectedAccounts = useMemo(
    () => (accounts ?? []).filter((account) => chosen.has(account.id) && canPostWith(account)),
    [accounts, chosen],
  );
  const selectedIds = selectedAccounts.map((account) => account.id);
  const creatorQueries = useCreatorOptions(selectedIds);
  const limits = combineCreatorOptions(
    creatorQueries.flatMap((query) => (query.data ? [query.data] : [])),
    creatorQueries.some((query) => query.isLoading),
  );
  // A level chosen before another account was ticked may no longer be offered by all of them.
  const offeredPrivacy = privacy !== null && (limits.privacyLevels === null || limits.privacyLevels.includes(privacy)) ? privacy : null;
  const effectiveInteractions: Interactions = {
    comments: interactions.comments && !limits.locked.comments,
    duet: interactions.duet && !limits.locked.duet,
    stitch: interactions.stitch && !limits.locked.stitch,
  };
  const choice = { accounts, selectedIds, privacy: offeredPrivacy };

  const toggleAccount = useCallback((id: string, on: boolean) => {
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  const canNext = step < LAST_STEP && canAdvance(step, { ...choice, subtitled: clip.subtitled, description });
  const canPost = step === LAST_STEP && postReady(choice) && !posting;

  const next = () => {
    if (canNext) setStep((current) => (current + 1) as WizardStep);
  };
  const previous = () => {
    if (step > 1 && !posting) setStep((current) => (current - 1) as WizardStep);
  };
  const submit = () => {
    if (!canPost || offeredPrivacy === null) return;
    post(
      { id: clip.clip_id, description, tiktok_account_ids: selectedIds, privacy_level: offeredPrivacy, ...interactionFlags(effectiveInteractions) },
      { onSuccess: onPosted },
    );
  };

  return {
    step,
    next,
    previous,
    canNext,
    canPost,
    submit,
    posting,
    suggestions,
    description,
    setDescription: setEdited,
    selectedAccounts,
    isChosen: (id: string) => chosen.has(id),
    toggleAccount,
    privacy: offeredPrivacy,
    setPrivacy,
    interactions: effectiveInteractions,
    setInteractions,
    limits,
  };
}

export type PostWizard = ReturnType<typeof usePostWizard>;
