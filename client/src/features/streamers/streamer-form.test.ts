import { describe, expect, it } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import { CAPTION_PRESET_STYLES, GLOSSARY_MAX_TERMS, type Streamer } from '@clipshift/shared';
import { NETWORK_ERROR } from '@/api/errors';
import {
  addGlossaryTerms,
  GLOSSARY_FULL,
  GLOSSARY_TERM_TOO_LONG,
  newStreamerValues,
  presetValues,
  saveErrors,
  SPLIT_NEEDS_FACECAM,
  streamerValues,
  validateStreamerForm,
  type StreamerFormValues,
  addClipCreators,
  CLIP_CREATOR_INVALID,
} from './streamer-form';

const STREAMER: Streamer = {
  name: 'pixelqueen',
  display_name: 'PixelQueen',
  clip_limit: 25,
  vertical: false,
  layout: 'crop',
  language: 'de',
  schedule: { interval: 2, unit: 'days' },
  next_run_at: null,
  auto_subtitle: true,
  auto_publish: false,
  tiktok_accounts: [],
  crop_focus: 0.3,
  facecam: { x: 0.7, y: 0.05, w: 0.25, h: 0.25 },
  gameplay: { x: 0, y: 0, w: 1, h: 1 },
  split_ratio: 0.4,
  caption_style: { ...CAPTION_PRESET_STYLES.boxed, size: 90, highlight_color: '#FF00AA' },
  glossary: ['PogChamp', 'Valorant'],
  normalize_audio: false,
  clip_period: 'week',
  min_views: 500,
  rank_by: 'velocity',
  clip_creators: ['trusted_mod'],
  publish_mode: 'review',
  watch_live: true,
  moment_threshold: 0.7500000119,
} as unknown as Streamer;

function refusal(code: string, message: string, issues?: { path: (string | number)[]; message: string }[]) {
  return TRPCClientError.from({ error: { message, code: -32600, data: { code, httpStatus: 400, issues } } });
}

const values = (patch: Partial<StreamerFormValues> = {}): StreamerFormValues => ({ ...newStreamerValues(), name: 'pixelqueen', ...patch });

describe('the streamer form', () => {
  it('starts a new streamer with the studio defaults: the automatic layout, classic captions, empty glossary, loudness normalised', () => {
    expect(newStreamerValues()).toMatchObject({
      layout: 'auto',
      captionStyle: { ...CAPTION_PRESET_STYLES.classic, size: '80' },
      glossary: [],
      normalizeAudio: true,
      regions: { facecam: null, crop_focus: 0.5, split_ratio: 0.35 },
    });
  });

  it('sends the caption style, glossary and loudness, and keeps the regions it does not edit', () => {
    const saved = validateStreamerForm(streamerValues(STREAMER), 'edit');
    expect(saved).toMatchObject({
      ok: true,
      payload: {
        caption_style: { ...CAPTION_PRESET_STYLES.boxed, size: 90, highlight_color: '#FF00AA' },
        glossary: ['PogChamp', 'Valorant'],
        normalize_audio: false,
        crop_focus: 0.3,
        facecam: { x: 0.7, y: 0.05, w: 0.25, h: 0.25 },
        split_ratio: 0.4,
      },
    });
    const bold = validateStreamerForm(values({ captionStyle: { ...presetValues('bold'), primary_color: '#abcdef' } }), 'add');
    expect(bold).toMatchObject({ ok: true, payload: { caption_style: { ...CAPTION_PRESET_STYLES.bold, primary_color: '#ABCDEF' } } });
  });

  it('picks a preset as its whole look', () => {
    expect(presetValues('minimal')).toEqual({ ...CAPTION_PRESET_STYLES.minimal, size: '60' });
  });

  it('refuses a caption size outside 24..140 under the size field', () => {
    for (const size of ['20', '141', '', 'big', '80.5']) {
      const result = validateStreamerForm(values({ captionStyle: { ...presetValues('classic'), size } }), 'add');
      expect(result, size).toEqual({ ok: false, errors: { captionSize: 'Caption size must be a whole number from 24 to 140' } });
    }
  });

  it('refuses a split layout until the facecam region is drawn, and allows it once it is', () => {
    expect(validateStreamerForm(values({ layout: 'split' }), 'add')).toEqual({ ok: false, errors: { layout: SPLIT_NEEDS_FACECAM } });
    const regions = { ...newStreamerValues().regions, facecam: { x: 0, y: 0, w: 0.3, h: 0.3 } };
    expect(validateStreamerForm(values({ layout: 'split', regions }), 'add')).toMatchObject({ ok: true, payload: { layout: 'split', facecam: regions.facecam } });
  });

  it('adds typed or pasted glossary terms, skipping blanks and repeats', () => {
    expect(addGlossaryTerms(['Valorant'], ' PogChamp ')).toEqual({ terms: ['Valorant', 'PogChamp'], problem: null, rest: '' });
    expect(addGlossaryTerms(['Valorant'], 'KEKW, Valorant,,\n  Sova\r\nJett ')).toEqual({ terms: ['Valorant', 'KEKW', 'Sova', 'Jett'], problem: null, rest: '' });
  });

  it('keeps back terms that are too long or beyond the limit, with the shared limits in the message', () => {
    const long = 'x'.repeat(51);
    expect(addGlossaryTerms([], `ok, ${long}`)).toEqual({ terms: ['ok'], problem: GLOSSARY_TERM_TOO_LONG, rest: long });
    expect(GLOSSARY_TERM_TOO_LONG).toBe('A glossary term is at most 50 characters');
    const full = Array.from({ length: GLOSSARY_MAX_TERMS }, (_, index) => `term${index}`);
    expect(addGlossaryTerms(full, 'one more')).toEqual({ terms: full, problem: GLOSSARY_FULL, rest: 'one more' });
    expect(GLOSSARY_FULL).toBe('A glossary holds at most 100 terms');
    expect(addGlossaryTerms(['x'.repeat(50)], 'x'.repeat(50)).problem).toBeNull();
  });

  it('places refusals of the studio fields under their fields', () => {
    const issues = [
      { path: ['caption_style', 'size'], message: 'bad size' },
      { path: ['caption_style', 'font'], message: 'bad font' },
      { path: ['glossary'], message: 'bad glossary' },
      { path: ['facecam'], message: 'bad facecam' },
    ];
    expect(saveErrors(refusal('BAD_REQUEST', 'Invalid input', issues), 'edit')).toEqual({
      captionSize: 'bad size',
      captionStyle: 'bad font',
      glossary: 'bad glossary',
      layout: 'bad facecam',
    });
  });

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
      layout: 'crop',
      language: 'de',
      scheduleEnabled: true,
      scheduleInterval: '2',
      scheduleUnit: 'days',
      autoSubtitle: true,
      autoPublish: false,
      captionStyle: { ...CAPTION_PRESET_STYLES.boxed, size: '90', highlight_color: '#FF00AA' },
      glossary: ['PogChamp', 'Valorant'],
      normalizeAudio: false,
      regions: { crop_focus: 0.3, facecam: { x: 0.7, y: 0.05, w: 0.25, h: 0.25 }, gameplay: { x: 0, y: 0, w: 1, h: 1 }, split_ratio: 0.4 },
      clipPeriod: 'week',
      minViews: '500',
      rankBy: 'velocity',
      clipCreators: ['trusted_mod'],
      publishMode: 'review',
      watchLive: true,
      momentThresholdPercent: 75,
    });
  });

  it('sends the selection settings, and shows a bad minimum under its field', () => {
    const result = validateStreamerForm(values({ clipPeriod: 'day', minViews: '250', rankBy: 'velocity', clipCreators: ['mod_a'], publishMode: 'review', featuredOnly: true }), 'add');
    expect(result).toEqual({ ok: true, payload: expect.objectContaining({ clip_period: 'day', min_views: 250, rank_by: 'velocity', clip_creators: ['mod_a'], publish_mode: 'review', featured_only: true }) });
    expect(newStreamerValues().featuredOnly).toBe(false);
    expect(validateStreamerForm(values({ minViews: '-3' }), 'add')).toEqual({ ok: false, errors: { minViews: 'min_views must be a whole number from 0 to 1000000000' } });
  });

  it('edits the moment settings as a whole percentage and sends them as 0..1', () => {
    expect(newStreamerValues()).toMatchObject({ watchLive: false, momentThresholdPercent: 60 });
    expect(streamerValues(STREAMER)).toMatchObject({ watchLive: true, momentThresholdPercent: 75 });
    const result = validateStreamerForm(values({ watchLive: true, momentThresholdPercent: 82 }), 'add');
    expect(result).toEqual({ ok: true, payload: expect.objectContaining({ watch_live: true, moment_threshold: 0.82 }) });
    expect(saveErrors(refusal('BAD_REQUEST', 'Invalid input', [{ path: ['moment_threshold'], message: 'moment_threshold must be a number from 0 to 1' }]), 'edit')).toEqual({
      momentThreshold: 'moment_threshold must be a number from 0 to 1',
    });
  });

  it('adds clip creators as lower-cased logins and keeps back what cannot be one', () => {
    expect(addClipCreators(['mod_a'], 'Mod_B, @vip_c mod_a')).toEqual({ terms: ['mod_a', 'mod_b', 'vip_c'], problem: null, rest: '' });
    expect(addClipCreators([], 'good, not-a-login')).toEqual({ terms: ['good'], problem: CLIP_CREATOR_INVALID, rest: 'not-a-login' });
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
