import { describe, expect, it } from 'vitest';
import { CLIP_SORT_LABELS, CLIP_SORTS, sortClips } from '@clipshift/shared';
import { formatDuration, formatLoudness, formatViews, formatViewsFull, isTrimmed, isVertical, versionedUrl } from './clip-format';
import { postDescription, rankedSuggestions, savedDescription } from './description-text';

describe('clip facts as the cards show them', () => {
  it('calls a clip trimmed by its trim, not by a measured length that differs from the source', () => {
    expect(isTrimmed({ trim_start: 0, trim_end: 30, duration: 30 })).toBe(false);
    // Twitch's duration and the file's measured length disagree by a frame or two.
    expect(isTrimmed({ trim_start: 0, trim_end: 29.98, duration: 30 })).toBe(false);
    expect(isTrimmed({ trim_start: 2, trim_end: 30, duration: 30 })).toBe(true);
    expect(isTrimmed({ trim_start: 0, trim_end: 12.5, duration: 30 })).toBe(true);
  });

  it('writes views compactly on cards and in full elsewhere', () => {
    expect(formatViews(1)).toBe('1 view');
    expect(formatViews(5400)).toBe('5.4K views');
    expect(formatViewsFull(5400)).toBe('5,400 views');
  });

  it('writes durations as m:ss or h:mm:ss', () => {
    expect(formatDuration(2)).toBe('0:02');
    expect(formatDuration(75)).toBe('1:15');
    expect(formatDuration(12.5)).toBe('0:13');
    expect(formatDuration(3723)).toBe('1:02:03');
    expect(formatDuration(-4)).toBe('0:00');
  });

  it('writes loudness to one decimal with a real minus sign', () => {
    expect(formatLoudness({ integrated_lufs: -14.06, true_peak_dbtp: -1.24 })).toBe('\u221214.1 LUFS · peak \u22121.2 dBTP');
    expect(formatLoudness({ integrated_lufs: -9, true_peak_dbtp: -0.04 })).toBe('\u22129.0 LUFS · peak 0.0 dBTP');
    expect(formatLoudness({ integrated_lufs: -20.5, true_peak_dbtp: 0.6 })).toBe('\u221220.5 LUFS · peak 0.6 dBTP');
  });

  it('ties a file URL to the clip’s version', () => {
    expect(versionedUrl('/api/clips/A/video', '2026-03-10T09:00:00.000Z')).toBe('/api/clips/A/video?v=2026-03-10T09%3A00%3A00.000Z');
    expect(versionedUrl('/x?a=1', 'v2')).toBe('/x?a=1&v=v2');
    expect(isVertical({ format_type: 'vertical' })).toBe(true);
  });
});

describe('descriptions', () => {
  const options = [
    { description: 'second', rank: 0.75 },
    { description: 'best', rank: 0.92 },
  ];
  const clip = (custom: string | null, selected: number) => ({ custom_description: custom, selected_description: selected, metadata: { descriptions: options } });

  it('ranks the suggestions highest first', () => {
    expect(rankedSuggestions(clip(null, -1)).map((option) => option.description)).toEqual(['best', 'second']);
  });

  it('starts the editor with the custom text, else the chosen suggestion, and the wizard with the Best Match', () => {
    const ranked = rankedSuggestions(clip(null, -1));
    expect(savedDescription(clip('mine', 0), ranked)).toBe('mine');
    expect(savedDescription(clip(null, 1), ranked)).toBe('second');
    expect(savedDescription(clip(null, -1), ranked)).toBe('');
    expect(postDescription(clip(null, -1), ranked)).toBe('best');
    expect(postDescription(clip(null, -1), [])).toBe('');
  });
});

describe('sorting the clips on the page', () => {
  const clips = [
    { id: 'late', view_count: 310, created_at: '2026-03-05T23:00:00Z', updated_at: '2026-03-11T09:00:00Z' },
    { id: 'ace', view_count: 5400, created_at: '2026-03-01T18:00:00Z', updated_at: '2026-03-10T09:00:00Z' },
    { id: 'triple', view_count: 12800, created_at: '2026-02-01T12:00:00Z', updated_at: '2026-03-12T09:00:00Z' },
  ];
  const order = (sort: (typeof CLIP_SORTS)[number]) => sortClips(clips, sort).map((clip) => clip.id);

  it('offers the spec’s sort options in order', () => {
    expect(CLIP_SORTS.map((sort) => CLIP_SORT_LABELS[sort])).toEqual(['Default', 'Most viewed', 'Least viewed', 'Newest clip', 'Oldest clip', 'Recently downloaded', 'First downloaded']);
  });

  it('keeps the server’s order by default and sorts a copy by views and dates', () => {
    expect(order('default')).toEqual(['late', 'ace', 'triple']);
    expect(order('views-desc')).toEqual(['triple', 'ace', 'late']);
    expect(order('date-asc')).toEqual(['triple', 'ace', 'late']);
    expect(order('down-date-desc')).toEqual(['triple', 'late', 'ace']);
    expect(clips[0]?.id).toBe('late');
  });
});
