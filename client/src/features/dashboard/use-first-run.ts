import { useState } from 'react';
import type { Streamer } from '@clipshift/shared';
import { useSession } from '@/api/auth';
import { useClipOverview } from '@/api/clips';
import { useTikTokAccounts } from '@/api/tiktok-accounts';
import { readPreference, writePreference } from '@/lib/storage';
import { dismissedKey, doneSteps, FIRST_RUN_STEPS, hasPosted, type FirstRunStep } from './first-run';

export interface FirstRun {
  done: ReadonlySet<FirstRunStep>;
  dismiss: () => void;
}

/**
 * The checklist's state, or null when it has nothing to show: not yet known (no flash of a
 * checklist an experienced user would not see), every step done, or put away by this user.
 * Clips and accounts are asked for only while the checklist is wanted.
 */
export function useFirstRun(streamers: readonly Streamer[] | undefined): FirstRun | null {
  const session = useSession();
  const userId = session.data?.authenticated ? session.data.user.id : null;
  const [dismissedNow, setDismissedNow] = useState(false);
  const dismissed = dismissedNow || (userId !== null && readPreference(dismissedKey(userId)) === true);
  const wanted = userId !== null && !dismissed;
  const clips = useClipOverview({ enabled: wanted });
  const accounts = useTikTokAccounts({ enabled: wanted });

  if (!wanted || !streamers || !clips.data || !accounts.data) return null;
  const done = doneSteps({
    streamers: streamers.length,
    clips: clips.data.total,
    tiktokAccounts: accounts.data.length,
    posted: hasPosted(clips.data.clips),
  });
  const dismiss = () => {
    writePreference(dismissedKey(userId), true);
    setDismissedNow(true);
  };
  // Finished counts as put away: later visits ask for nothing, and a post that leaves the first
  // page of clips cannot bring the checklist back.
  if (done.size === FIRST_RUN_STEPS.length) {
    writePreference(dismissedKey(userId), true);
    return null;
  }
  return { done, dismiss };
}
