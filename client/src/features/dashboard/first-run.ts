import { isDeliveredUpload, isUploadInProgress, type Clip } from '@clipshift/shared';

/*
 * A new user's way to a first post: add a streamer, download clips, connect an account (of any
 * platform), post. Each step is done by what the server holds, never by a click on the checklist.
 */

export const FIRST_RUN_STEPS = ['streamer', 'clips', 'account', 'post'] as const;
export type FirstRunStep = (typeof FIRST_RUN_STEPS)[number];

export interface FirstRunFacts {
  streamers: number;
  clips: number;
  /** Connected accounts of any platform. */
  accounts: number;
  /** Some clip has an upload queued, on its way or delivered. */
  posted: boolean;
}

/** An upload counts once it is queued or waits for its posting slot; a failed or canceled one does not. */
export function hasPosted(clips: readonly Pick<Clip, 'posted_to'>[]): boolean {
  return clips.some((clip) => clip.posted_to.some((upload) => upload.status === 'scheduled' || isUploadInProgress(upload.status) || isDeliveredUpload(upload.status)));
}

export function doneSteps(facts: FirstRunFacts): ReadonlySet<FirstRunStep> {
  const done: Record<FirstRunStep, boolean> = {
    streamer: facts.streamers > 0,
    clips: facts.clips > 0,
    account: facts.accounts > 0,
    post: facts.posted,
  };
  return new Set(FIRST_RUN_STEPS.filter((step) => done[step]));
}

/** Where this browser remembers that a user put the checklist away. */
export function dismissedKey(userId: string): string {
  return `first-run-dismissed:${userId}`;
}
