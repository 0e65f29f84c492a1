import { describe, expect, it } from 'vitest';
import { CAPTION_PRESET_STYLES, EMPTY_CLIP_EDIT, STREAMER_STUDIO_DEFAULTS, type StreamerStudio } from '@clipshift/shared';
import { changedFields, clipHookCard, draftProblem, effectiveValues, fallbackValues, looksForCamera, previewRequest, resetSection, savedDraft, sectionIsOwn, showsLayouts, streamerChanges } from './studio-draft';

const streamer: StreamerStudio = { ...STREAMER_STUDIO_DEFAULTS, layout: 'split', facecam: { x: 0, y: 0, w: 0.3, h: 0.3 }, caption_style: CAPTION_PRESET_STYLES.bold, normalize_audio: false };

describe('studio draft', () => {
  it("shows a clip's overrides over its streamer's settings, and the whole clip untrimmed", () => {
    const draft = savedDraft('clip', { ...EMPTY_CLIP_EDIT, layout: 'crop', crop_focus: 0.2 }, streamer);
    const values = effectiveValues(draft, fallbackValues('clip', streamer, 12));
    expect(values).toMatchObject({ layout: 'crop', crop_focus: 0.2, facecam: streamer.facecam, caption_style: CAPTION_PRESET_STYLES.bold, normalize_audio: false, trim_start: 0, trim_end: 12 });
    expect(sectionIsOwn(draft, 'layout')).toBe(true);
    expect(sectionIsOwn(draft, 'captions')).toBe(false);
  });

  it('resets a section to null (the streamer default) and knows what changed', () => {
    const saved = savedDraft('clip', { ...EMPTY_CLIP_EDIT, layout: 'crop', trim_start: 2 }, streamer);
    const reset = resetSection(saved, 'layout');
    expect(reset).toMatchObject({ layout: null, trim_start: 2 });
    expect(changedFields(reset, saved)).toEqual(['layout']);
    expect(changedFields(saved, saved)).toEqual([]);
  });

  it("edits a streamer's settings over the contract defaults and saves them whole", () => {
    const draft = savedDraft('streamer', EMPTY_CLIP_EDIT, streamer);
    expect(draft).toMatchObject({ layout: 'split', crop_focus: null, normalize_audio: false });
    const values = effectiveValues(resetSection(draft, 'audio'), fallbackValues('streamer', streamer, 12));
    const { glossary: _glossary, ...studioFields } = streamer;
    expect(streamerChanges(values)).toEqual({ ...studioFields, normalize_audio: true });
  });

  it("previews a streamer's settings without the clip's own trim and facecam switch", () => {
    const values = effectiveValues(savedDraft('streamer', EMPTY_CLIP_EDIT, streamer), fallbackValues('streamer', streamer, 12));
    expect(previewRequest('streamer', EMPTY_CLIP_EDIT, values, 3.456)).toMatchObject({ format: 'vertical', layout: 'split', facecam_off: null, trim_start: null, trim_end: null, t: 3.46 });
    expect(previewRequest('clip', { ...EMPTY_CLIP_EDIT, layout: 'blur' }, values, 1)).toEqual({ ...EMPTY_CLIP_EDIT, layout: 'blur', t: 1 });
  });

  it("falls back to the clip's downloaded format, shows layouts only for a vertical clip, and resets the format with the layout", () => {
    const saved = savedDraft('clip', EMPTY_CLIP_EDIT, streamer);
    expect(effectiveValues(saved, fallbackValues('clip', streamer, 12, 'horizontal')).format).toBe('horizontal');
    const made = { ...saved, format: 'vertical' as const };
    const values = effectiveValues(made, fallbackValues('clip', streamer, 12, 'horizontal'));
    expect(showsLayouts('clip', values)).toBe(true);
    expect(showsLayouts('clip', { format: 'horizontal' })).toBe(false);
    expect(showsLayouts('streamer', { format: 'horizontal' })).toBe(true);
    expect(changedFields(made, saved)).toEqual(['format']);
    expect(previewRequest('clip', made, values, 1)).toMatchObject({ format: 'vertical' });
    expect(resetSection(made, 'layout').format).toBeNull();
  });

  it('says why a draft cannot be saved, as the server would', () => {
    const values = effectiveValues(EMPTY_CLIP_EDIT, fallbackValues('clip', { ...streamer, facecam: null }, 12));
    expect(draftProblem('clip', values, 12)).toMatch(/needs a facecam region/);
    expect(draftProblem('clip', { ...values, facecam_off: true }, 12)).toBeNull();
    expect(draftProblem('clip', { ...values, facecam_off: true, trim_start: 5, trim_end: 5.5 }, 12)).toMatch(/at least 1 s/);
  });

  it("shows a clip's title card as a render would: its own, else its suggestion or the streamer's line when the streamer turns hooks on", () => {
    const streamerHook = { text: 'Watch this', seconds: 2 };
    expect(clipHookCard(null, null, 'Unreal clutch')).toBeNull();
    expect(clipHookCard(null, streamerHook, 'Unreal clutch')).toEqual({ text: 'Unreal clutch', seconds: 2 });
    expect(clipHookCard(null, streamerHook, null)).toEqual(streamerHook);
    expect(clipHookCard(null, { text: '', seconds: 2 }, null)).toBeNull();
    expect(clipHookCard({ text: 'Mine', seconds: 4 }, streamerHook, 'Unreal clutch')).toEqual({ text: 'Mine', seconds: 4 });
    expect(clipHookCard({ text: '', seconds: 4 }, streamerHook, 'Unreal clutch')).toBeNull();
    const draft = { ...EMPTY_CLIP_EDIT, hook: { text: '', seconds: 3 } };
    expect(sectionIsOwn(draft, 'hook')).toBe(true);
    expect(resetSection(draft, 'hook').hook).toBeNull();
    expect(sectionIsOwn(draft, 'brand')).toBe(false);
  });

  it('looks for the camera only for the automatic layout with no rectangle drawn', () => {
    const auto = effectiveValues(EMPTY_CLIP_EDIT, fallbackValues('clip', { ...STREAMER_STUDIO_DEFAULTS, layout: 'auto' }, 12));
    expect(looksForCamera('clip', auto)).toBe(true);
    expect(looksForCamera('clip', { ...auto, facecam: { x: 0, y: 0, w: 0.2, h: 0.2 } })).toBe(false);
    expect(looksForCamera('clip', { ...auto, facecam_off: true })).toBe(false);
    expect(looksForCamera('clip', { ...auto, layout: 'blur' })).toBe(false);
    expect(looksForCamera('clip', { ...auto, format: 'horizontal' })).toBe(false);
    expect(looksForCamera('streamer', { ...auto, format: 'horizontal' })).toBe(true);
  });
});
