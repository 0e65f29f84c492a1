import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jobPercent, toRender } from '../../server/src/domains/subtitles/progress.ts';
import { throttledWriter } from '../../server/src/platform/throttled-writer.ts';

describe('progress writes (at most one a second, the latest value)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the first value at once, then only the latest one a second after the last write', async () => {
    const written: number[] = [];
    const writer = throttledWriter(async (value: number) => void written.push(value), 1_000);
    writer.push(1);
    writer.push(2);
    writer.push(3);
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual([1]);
    await vi.advanceTimersByTimeAsync(999);
    expect(written).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(written).toEqual([1, 3]);
    // Quiet for longer than the interval: the next value goes at once again.
    await vi.advanceTimersByTimeAsync(5_000);
    writer.push(4);
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual([1, 3, 4]);
  });

  it('writes nothing after stop, and a failed write does not stop the next one', async () => {
    const written: number[] = [];
    const writer = throttledWriter(async (value: number) => {
      if (value === 1) throw new Error('database busy');
      written.push(value);
    }, 1_000);
    writer.push(1);
    writer.push(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(written).toEqual([2]);
    writer.push(3);
    await writer.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(written).toEqual([2]);
  });
});

describe('a subtitle job as the clip shows it', () => {
  it('spreads the stages over the percent, in order', () => {
    // Described before the render: the suggested hook can title the clip in the same encode.
    expect(jobPercent('transcribing', 0)).toBe(0);
    expect(jobPercent('transcribing', 1)).toBe(jobPercent('describing', 0));
    expect(jobPercent('describing', 1)).toBe(jobPercent('rendering', 0));
    expect(jobPercent('rendering', 0.5)).toBeGreaterThan(jobPercent('rendering', 0));
    expect(jobPercent('rendering', 1)).toBeLessThan(100);
    expect(jobPercent('rendering', 7)).toBe(jobPercent('rendering', 1));
    expect(jobPercent('rendering', Number.NaN)).toBe(jobPercent('rendering', 0));
  });

  it('maps the latest request to idle, queued, rendering or failed', () => {
    const request = { stage: null, percent: null, message: null };
    expect(toRender(undefined)).toEqual({ status: 'idle', stage: null, percent: null, error: null });
    expect(toRender({ ...request, status: 'queued' })).toEqual({ status: 'queued', stage: null, percent: 0, error: null });
    expect(toRender({ ...request, status: 'running', stage: 'rendering', percent: 61 })).toEqual({ status: 'rendering', stage: 'rendering', percent: 61, error: null });
    expect(toRender({ status: 'failed', stage: 'rendering', percent: 61, message: 'ffmpeg died' })).toEqual({ status: 'failed', stage: 'rendering', percent: null, error: 'ffmpeg died' });
    expect(toRender({ ...request, status: 'done', percent: 100 })).toEqual({ status: 'idle', stage: null, percent: null, error: null });
    expect(toRender({ ...request, status: 'no_speech' })).toEqual({ status: 'idle', stage: null, percent: null, error: null });
  });
});
