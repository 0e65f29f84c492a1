import { useState } from 'react';
import type { Streamer } from '@clipshift/shared';
import { useConnectedAccounts } from '@/api/accounts';
import { useSession } from '@/api/auth';
import { useClipOverview } from '@/api/clips';
import { readPreference, writePreference } from '@/lib/storage';
import { dismissedKey, doneSteps, FIRST_RUN_STEPS, hasPosted, type FirstRunStep } from './first-run';

export interface FirstRun {
  done: ReadonlySet<FirstRunStep>;
  dismiss: () => void;
}

export interface FirstRunState {
  /**
   * Whether the checklist shows is not known yet. The page holds its cards back meanwhile: a
   * checklist appearing above them later would push them down under a finger about to tap.
   */
  pending: boolean;
  /** The checklist, or null: every step done, put away by this user, or not known yet. */
  checklist: FirstRun | null;
}

/**
 * The checklist's state. Clips and accounts (of any platform) are asked for only while the
 * checklist is wanted; a user who put it away or finished it waits for nothing.
 */
export function useFirstRun(streamers: readonly Streamer[] | undefined, streamersFailed: boolean): FirstRunState {
  const session = useSession();
  const userId = session.data?.authenticated ? session.data.user.id : null;
  const [dismissedNow, setDismissedNow] = useState(false);
  const dismissed = dismissedNow || (userId !== null && readPreference(dismissedKey(userId)) === true);
  const wanted = userId !== null && !dismissed;
  const clips = useClipOverview({ enabled: wanted });
  const accounts = useConnectedAccounts({ enabled: wanted });

  if (!wanted) return { pending: false, checklist: null };
  // A failed load shows no checklist rather than holding the page back.
  if (streamersFailed || clips.isError || accounts.isError) return { pending: false, checklist: null };
  if (!streamers || !clips.data || !accounts.data) return { pending: true, checklist: null };
  const done = doneSteps({
    streamers: streamers.length,
    clips: clips.data.total,
    accounts: accounts.data.length,
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
    return { pending: false, checklist: null };
  }
  return { pending: false, checklist: { done, dismiss } };
}
