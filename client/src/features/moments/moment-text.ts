import { CONNECT_TWITCH_FOR_MOMENTS, streamOffsetLabel, type Moment } from '@clipshift/shared';

/** A moment that waits only for the user to connect a Twitch account (the banner says what to do). */
export function waitsForTwitch(moment: Pick<Moment, 'status' | 'error'>): boolean {
  return moment.status === 'found' && moment.error === CONNECT_TWITCH_FOR_MOMENTS;
}

/** "at 1:02:15 into the stream" */
export function streamOffsetText(seconds: number): string {
  return `at ${streamOffsetLabel(seconds)} into the stream`;
}

/** What the card says under the reasons about where the moment stands; null when the badge says it all. */
export function momentStatusNote(moment: Pick<Moment, 'status' | 'error'>): string | null {
  if (waitsForTwitch(moment)) return 'Waiting for a connected Twitch account.';
  if (moment.error) return moment.error;
  if (moment.status === 'found') return 'Making its clip…';
  return null;
}
