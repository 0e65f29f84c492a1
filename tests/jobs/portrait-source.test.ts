import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_FRAME, STREAMER_STUDIO_DEFAULTS } from '@clipshift/shared';
import { makeClipVideo, renderPlan } from '../../server/src/domains/studio/service.ts';
import { clipMedia, PORTRAIT_MEDIA } from '../fakes/twitch/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/*
 * Issue 23: a clip whose source is the streamer's own portrait version is shown as it is — no
 * camera detection, no cropping or split by landscape regions — and still gets its captions and
 * title card, in the one render of studio's pipeline (real ffmpeg).
 */
describe("the streamer's portrait version as a clip's source", () => {
  let app: TestApp;
  let workDir: string;
  let source: string;

  beforeAll(async () => {
    app = await createTestApp();
    workDir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-portrait-'));
    source = await clipMedia(PORTRAIT_MEDIA);
  });
  afterAll(async () => {
    await app?.close();
    await rm(workDir, { recursive: true, force: true });
  });

  it('plans the whole picture for every vertical layout, keeping captions and hook', () => {
    for (const layout of ['auto', 'split', 'crop'] as const) {
      const streamer = { ...STREAMER_STUDIO_DEFAULTS, layout, facecam: { x: 0, y: 0.7, w: 0.25, h: 0.25 }, gameplay: FULL_FRAME, hook: { text: 'Watch this', seconds: 2 } };
      const plan = renderPlan({ vertical: true, streamer, sourceDurationSec: 3, portraitSource: true });
      expect(plan.layout, layout).toEqual({ kind: 'blur' });
      expect(plan.hook).toEqual({ text: 'Watch this', seconds: 2 });
      // Without the portrait source the same settings would look for a camera or crop.
      expect(renderPlan({ vertical: true, streamer, sourceDurationSec: 3 }).layout).not.toEqual({ kind: 'blur' });
    }
  });

  it('renders 1080x1920 without looking for a camera, captions and title card burned in', async () => {
    const streamer = { ...STREAMER_STUDIO_DEFAULTS, layout: 'auto' as const, hook: { text: 'Watch this', seconds: 2 } };
    const video = await makeClipVideo(app.deps, {
      source,
      workDir,
      plan: (sourceDurationSec) => renderPlan({ vertical: true, streamer, sourceDurationSec, portraitSource: true }),
      captions: { kind: 'saved', words: [{ start: 0.2, end: 0.9, text: 'portrait' }], language: 'en' },
      signal: new AbortController().signal,
      onStage: () => {},
    });
    expect(video.rendered).toMatchObject({ width: 1080, height: 1920, detected: null });
    expect(video.plan.layout).toEqual({ kind: 'blur' });
    expect(video.spokenText).toBe('portrait');
    const ass = await readFile(path.join(workDir, 'captions.ass'), 'utf8');
    expect(ass).toMatch(/portrait/i);
    expect(ass).toMatch(/Watch this/i);
  });
});
