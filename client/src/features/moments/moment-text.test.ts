import { describe, expect, it } from 'vitest';
import { CONNECT_TWITCH_FOR_MOMENTS } from '@clipshift/shared';
import { momentStatusNote, streamOffsetText, waitsForTwitch } from './moment-text';

describe('moment texts', () => {
  it('say where in the stream a moment is', () => {
    expect(streamOffsetText(3735)).toBe('at 1:02:15 into the stream');
    expect(streamOffsetText(725)).toBe('at 12:05 into the stream');
  });

  it('tell a moment waiting for a Twitch connection from one being clipped, skipped or failed', () => {
    expect(waitsForTwitch({ status: 'found', error: CONNECT_TWITCH_FOR_MOMENTS })).toBe(true);
    expect(waitsForTwitch({ status: 'failed', error: CONNECT_TWITCH_FOR_MOMENTS })).toBe(false);
    expect(waitsForTwitch({ status: 'found', error: null })).toBe(false);
    expect(momentStatusNote({ status: 'found', error: CONNECT_TWITCH_FOR_MOMENTS })).toBe('Waiting for a connected Twitch account.');
    expect(momentStatusNote({ status: 'found', error: null })).toBe('Making its clip…');
    expect(momentStatusNote({ status: 'failed', error: 'Twitch refused the clip' })).toBe('Twitch refused the clip');
    expect(momentStatusNote({ status: 'clipped', error: null })).toBeNull();
  });
});
