import { useCallback, useMemo, useState } from 'react';
import {
  commercialOf,
  DEFAULT_INSTAGRAM_OPTIONS,
  disclosureProblem,
  NO_DISCLOSURE,
  PRIVATE_LEVEL,
  type Clip,
  type ConnectedAccount,
  type DisclosureChoice,
  type InstagramPostOptions,
} from '@clipshift/shared';
import type { PostClipInput } from '@clipshift/shared';
import { usePostClip } from '@/api/posting';
import { useCreatorOptions } from '@/api/tiktok-accounts';
import { postDescription, rankedSuggestions } from '../shared/description-text';
import { instagramOptionsProblem } from '../shared/instagram-posting';
import { ALL_INTERACTIONS_ALLOWED, combineCreatorOptions, interactionFlags, type Interactions, type PrivacyLevel } from '../shared/tiktok-posting';
import { defaultYouTubeTitle, mediaOf, preflight, titleProblem } from './preflight';
import { canAdvance, canPostWith, LAST_STEP, platformsOf, postReady, type WizardStep, type YouTubePrivacy } from './wizard-rules';

/**
 * The wizard's choices. It is mounted each time the dialog opens, so every opening starts at step 1
 * with no account chosen and no privacy level (spec section 4, TikTok's guidelines; YouTube's
 * privacy has no default either). Until the user edits it, the description follows the clip: its
 * saved description, else the Best Match (or the text the details modal was editing when it opened
 * the wizard); the YouTube title is the clip's, cut to 100 characters. Nothing is disclosed as
 * commercial content until the user says so. Instagram starts from the API's defaults: shared to
 * the feed, no trial, no collaborators.
 */
export function usePostWizard(clip: Clip, accounts: readonly ConnectedAccount[] | undefined, onPosted: () => void, initialDescription?: string) {
  const [step, setStep] = useState<WizardStep>(1);
  const [edited, setEdited] = useState<string | null>(initialDescription ?? null);
  const [disclosure, setDisclosure] = useState<DisclosureChoice>(NO_DISCLOSURE);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [privacy, setPrivacy] = useState<PrivacyLevel | null>(null);
  const [interactions, setInteractions] = useState<Interactions>(ALL_INTERACTIONS_ALLOWED);
  const [editedTitle, setTitle] = useState<string | null>(null);
  const [youtubePrivacy, setYouTubePrivacy] = useState<YouTubePrivacy | null>(null);
  const [notifySubscribers, setNotifySubscribers] = useState(false);
  const [instagram, setInstagram] = useState<InstagramPostOptions>(DEFAULT_INSTAGRAM_OPTIONS);
  const { post, posting } = usePostClip();

  const suggestions = useMemo(() => rankedSuggestions(clip), [clip]);
  const description = edited ?? postDescription(clip, suggestions);
  const title = editedTitle ?? defaultYouTubeTitle(clip.title);
  // Only accounts that still exist and can post count, whatever was ticked before a reload.
  const selectedAccounts = useMemo(
    () => (accounts ?? []).filter((account) => chosen.has(account.id) && canPostWith(account)),
    [accounts, chosen],
  );
  const selectedIds = selectedAccounts.map((account) => account.id);
  const platforms = platformsOf(selectedAccounts);
  const tiktokIds = selectedAccounts.filter((account) => account.platform === 'tiktok').map((account) => account.id);
  const creatorQueries = useCreatorOptions(tiktokIds);
  const creatorOptions = creatorQueries.flatMap((query) => (query.data ? [query.data] : []));
  const limits = combineCreatorOptions(creatorOptions, creatorQueries.some((query) => query.isLoading));
  const commercial = commercialOf(disclosure);
  // A level chosen before another account was ticked may no longer be offered by all of them, and
  // "Only me" chosen before Branded content was ticked is no longer allowed.
  const offered = privacy !== null && (limits.privacyLevels === null || limits.privacyLevels.includes(privacy));
  const offeredPrivacy = offered && !(commercial.branded_content && privacy === PRIVATE_LEVEL) ? privacy : null;
  const disclosureReason = tiktokIds.length > 0 ? disclosureProblem(disclosure) : null;
  const effectiveInteractions: Interactions = {
    comments: interactions.comments && !limits.locked.comments,
    duet: interactions.duet && !limits.locked.duet,
    stitch: interactions.stitch && !limits.locked.stitch,
  };
  const tiktokMaxDurationSec = creatorOptions.length > 0 ? Math.min(...creatorOptions.map((option) => option.max_video_post_duration_sec)) : null;
  const problems = preflight(platforms, mediaOf(clip), { tiktokMaxDurationSec, caption: description });
  const youtubeTitleProblem = platforms.has('youtube') ? titleProblem(title) : null;
  const instagramProblem = platforms.has('instagram') ? instagramOptionsProblem(instagram) : null;
  const choice = {
    accounts,
    selectedIds,
    privacy: offeredPrivacy,
    youtubePrivacy,
    titleProblem: youtubeTitleProblem,
    preflightProblems: problems.reduce((sum, entry) => sum + entry.problems.length, 0),
    disclosureProblem: disclosureReason,
    instagramProblem,
  };

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
    if (!canPost) return;
    // Each platform's options go only when one of its accounts is chosen.
    const tiktok = tiktokIds.length > 0 && offeredPrivacy !== null ? { privacy_level: offeredPrivacy, ...interactionFlags(effectiveInteractions), tiktok_commercial: commercial } : {};
    const youtube = platforms.has('youtube') && youtubePrivacy !== null ? { title: title.trim(), youtube_privacy: youtubePrivacy, youtube_notify_subscribers: notifySubscribers } : {};
    const reels = platforms.has('instagram') ? { instagram } : {};
    const input: PostClipInput = { id: clip.clip_id, description, account_ids: selectedIds, ...tiktok, ...youtube, ...reels };
    post(input, { onSuccess: onPosted });
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
    platforms,
    isChosen: (id: string) => chosen.has(id),
    toggleAccount,
    privacy: offeredPrivacy,
    setPrivacy,
    interactions: effectiveInteractions,
    setInteractions,
    limits,
    title,
    setTitle,
    titleProblem: youtubeTitleProblem,
    youtubePrivacy,
    setYouTubePrivacy,
    notifySubscribers,
    setNotifySubscribers,
    instagram,
    setInstagram,
    problems,
    disclosure,
    setDisclosure,
    commercial,
    disclosureProblem: disclosureReason,
  };
}

export type PostWizard = ReturnType<typeof usePostWizard>;
