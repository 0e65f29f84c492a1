import { describe, expect, it } from 'vitest';
import { clipsSummary, describeClipProgress } from './run-text';

describe('a run as the dashboard words it', () => {
  it('counts the clips, with the total once known and the failures when any', () => {
    expect(clipsSummary({ clips_downloaded: 0, clips_total: 0, clips_failed: 0 })).toBe('0 clips downloaded');
    expect(clipsSummary({ clips_downloaded: 1, clips_total: 0, clips_failed: 0 })).toBe('1 clip downloaded');
    expect(clipsSummary({ clips_downloaded: 1, clips_total: 1, clips_failed: 0 })).toBe('1 of 1 clip downloaded');
    expect(clipsSummary({ clips_downloaded: 2, clips_total: 5, clips_failed: 1 })).toBe('2 of 5 clips downloaded · 1 failed');
  });

  it('names each clip’s stage, with a percentage only where the stage measures one', () => {
    expect(describeClipProgress({ clip_id: 'a', title: 'ace clutch', stage: 'rendering', percent: 41.6 })).toBe("Rendering 'ace clutch' — 42%");
    expect(describeClipProgress({ clip_id: 'a', title: 'ace clutch', stage: 'probing', percent: 0 })).toBe("Inspecting 'ace clutch'…");
    expect(describeClipProgress({ clip_id: 'a', title: 'x', stage: 'thumbnail', percent: 0 })).toBe("Making thumbnail for 'x'…");
    expect(describeClipProgress({ clip_id: 'a', title: 'flick', stage: 'waiting_to_render', percent: 0 })).toBe("Waiting to render 'flick'…");
  });
});
