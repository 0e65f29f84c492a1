import { describe, expect, it } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import type { Streamer } from '@clipshift/shared';
import { NETWORK_ERROR } from '@/api/errors';
import { newStreamerValues, saveErrors, streamerValues, validateStreamerForm, type StreamerFormValues } from './streamer-form';

const STREAMER: Streamer = {
  name: 'pixelqueen',
  display_name: 'PixelQueen',
  clip_limit: 25,
  vertical: false,
  layout: 'center_crop',
  language: 'de',
  schedule: { interval: 2, unit: 'days' },
  next_run_at: null,
  auto_subtitle: true,
  auto_publish: false,
  tiktok_accounts: [],
} as unknown as Streamer;

function refusal(code: string, message: string, issues?: { path: (string | number)[]; message: string }[]) {
  return TRPCClientError.from({ error: { message, code: -32600, data: { code, httpStatus: 400, issues } } });
}

const values = (patch: Partial<StreamerFormValues> = {}): StreamerFormValues => ({ ...newStreamerValues(), name: 'pixelqueen', ...patch });

describe('the streamer form', () => {
  it('starts a new streamer with the spec’s defaults: limit 10, vertical, no schedule (4 hours offered), no automation', () => {
    expect(newStreamerValues()).toMatchObject({
      name: '',
      clipLimit: '10',
      vertical: true,
      scheduleEnabled: false,
      scheduleInterval: '4',
      scheduleUnit: 'hours',
      autoSubtitle: false,
      autoPublish: false,
    });
  });

  it('edits a saved streamer as its values, numbers as text', () => {
    expect(streamerValues(STREAMER)).toEqual({
      name: 'pixelqueen',
      clipLimit: '25',
      vertical: false,
      layout: 'center_crop',
      language: 'de',
      scheduleEnabled: true,
      scheduleInterval: '2',
      scheduleUnit: 'days',
      autoSubtitle: true,
      autoPublish: false,
    });
  });

  it('builds the payload with numbers and a schedule only when one is wanted', () => {
    const result = validateStreamerForm(values({ clipLimit: ' 12 ', scheduleEnabled: true, scheduleInterval: '3', scheduleUnit: 'days' }), 'add');
    expect(result).toEqual({
      ok: true,
      payload: expect.objectContaining({ name: 'pixelqueen', clip_limit: 12, schedule: { interval: 3, unit: 'days' } }),
    });
    const unscheduled = validateStreamerForm(values({ scheduleInterval: 'nonsense' }), 'add');
    expect(unscheduled.ok && unscheduled.payload.schedule).toBeNull();
  });

  it('refuses with the shared schema’s messages, one per field', () => {
    const result = validateStreamerForm(values({ name: '   ', clipLimit: '2.5', scheduleEnabled: true, scheduleInterval: '0' }), 'add');
    expect(result).toEqual({
      ok: false,
      errors: {
        name: 'Streamer name is required',
        clipLimit: 'Clip limit must be a whole number from 1 to 100',
        scheduleInterval: 'Schedule interval must be a whole number of at least 1',
      },
    });
    expect(validateStreamerForm(values({ clipLimit: 'ten' }), 'add')).toMatchObject({ ok: false, errors: { clipLimit: expect.any(String) } });
  });

  it('does not check the name of a streamer being edited: it cannot change', () => {
    expect(validateStreamerForm(values({ name: 'x y' }), 'edit')).toMatchObject({ ok: true, payload: { name: 'x y' } });
  });

  it('places the server’s refusals: by field, on the name when adding, else on the form', () => {
    const issues = [
      { path: ['schedule', 'interval'], message: 'bad interval' },
      { path: ['limit'], message: 'bad limit' },
      { path: ['clip_limit'], message: 'second' },
    ];
    expect(saveErrors(refusal('BAD_REQUEST', 'Invalid input', issues), 'edit')).toEqual({ scheduleInterval: 'bad interval', clipLimit: 'bad limit' });
    expect(saveErrors(refusal('BAD_REQUEST', 'Twitch user nosuchuser does not exist'), 'add')).toEqual({ name: 'Twitch user nosuchuser does not exist' });
    expect(saveErrors(refusal('CONFLICT', 'Streamer PixelQueen already exists'), 'add')).toEqual({ name: 'Streamer PixelQueen already exists' });
    expect(saveErrors(refusal('CONFLICT', 'Cannot edit pixelqueen while clips are being downloaded'), 'edit')).toEqual({
      form: 'Cannot edit pixelqueen while clips are being downloaded',
    });
    expect(saveErrors(refusal('BAD_REQUEST', 'Invalid input', [{ path: ['clip_limit'], message: 'Clip limit must be a whole number from 1 to 100' }]), 'add')).toEqual({
      clipLimit: 'Clip limit must be a whole number from 1 to 100',
    });
    expect(saveErrors(new TypeError('Failed to fetch'), 'add')).toEqual({ form: NETWORK_ERROR });
  });
});
