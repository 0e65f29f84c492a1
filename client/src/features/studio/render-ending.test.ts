import { describe, expect, it } from 'vitest';
import { IDLE_RENDER, type ClipRender } from '@clipshift/shared';
import { renderEnding } from './render-ending';

const rendering: ClipRender = { status: 'rendering', stage: 'rendering', percent: 40, error: null };
const queued: ClipRender = { status: 'queued', stage: null, percent: 0, error: null };
const failed: ClipRender = { status: 'failed', stage: 'rendering', percent: null, error: 'Render failed: ffmpeg exited' };

describe('the end of a render the studio watched', () => {
  it('says finished when the render is over and the clip has a new video', () => {
    expect(renderEnding({ render: rendering, updatedAt: 'a' }, { render: IDLE_RENDER, updatedAt: 'b' })).toBe('finished');
    expect(renderEnding({ render: queued, updatedAt: 'a' }, { render: IDLE_RENDER, updatedAt: 'b' })).toBe('finished');
  });

  it('says failed when it failed', () => {
    expect(renderEnding({ render: rendering, updatedAt: 'a' }, { render: failed, updatedAt: 'a' })).toBe('failed');
  });

  it('stays quiet while it runs, after a stop (the same video), and for renders over before the page opened', () => {
    expect(renderEnding({ render: queued, updatedAt: 'a' }, { render: rendering, updatedAt: 'a' })).toBeNull();
    expect(renderEnding({ render: rendering, updatedAt: 'a' }, { render: IDLE_RENDER, updatedAt: 'a' })).toBeNull();
    expect(renderEnding(null, { render: IDLE_RENDER, updatedAt: 'b' })).toBeNull();
    expect(renderEnding({ render: IDLE_RENDER, updatedAt: 'a' }, { render: IDLE_RENDER, updatedAt: 'b' })).toBeNull();
  });
});
