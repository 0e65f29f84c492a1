import { Router, type Request, type Response } from 'express';
import { clipFrameInput, previewClipInput } from '@clipshift/shared';
import type { AppDeps } from '../domains/deps.ts';
import { clipFrame, previewClip } from '../domains/studio/service.ts';
import { PROCESS_IDENTITY } from '../platform/identity.ts';
import { createRequestContext } from './context.ts';
import { bodyWithParams } from './rest/adapter.ts';
import { sendError } from './rest/errors.ts';
import { authedProcedure, createCallerFactory, router } from './trpc.ts';

/*
 * The studio's images are JPEG answers, so they are no JSON procedures of the app router (nor on
 * /api/trpc); they still run as procedures, through a caller, so that sign-in, NUL refusal, input
 * validation and error mapping are exactly those of every other route.
 */
// Nested under `studio` so that the procedure paths are the routes' operationIds (access.ts).
const imagesRouter = router({
  studio: router({
    frame: authedProcedure
      .input(clipFrameInput)
      .query(({ ctx, input, signal }) => clipFrame(ctx.deps, ctx.user.id, input, { instance: PROCESS_IDENTITY.instance, signal })),

    preview: authedProcedure
      .input(previewClipInput)
      .mutation(({ ctx, input, signal }) => previewClip(ctx.deps, ctx.user.id, input, { instance: PROCESS_IDENTITY.instance, signal })),
  }),
});

const createImagesCaller = createCallerFactory(imagesRouter);
type ImagesCaller = ReturnType<typeof createImagesCaller>;

async function answerImage(deps: AppDeps, req: Request, res: Response, make: (images: ImagesCaller) => Promise<Buffer>): Promise<void> {
  // A client that goes away (a user dragging on) stops its ffmpeg rather than wait for it.
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  try {
    const ctx = await createRequestContext(deps, req, res);
    const image = await make(createImagesCaller(ctx, { signal: gone.signal }));
    // Each answer depends on unsaved settings or a moment of the clip: nothing worth caching.
    res.status(200).setHeader('Cache-Control', 'private, no-store');
    res.type('image/jpeg').send(image);
  } catch (error) {
    if (gone.signal.aborted) return;
    await sendError(deps, req, res, error);
  }
}

/** What the request sent, as the procedure takes it: the procedure's own schema validates it. */
type FrameRequest = Parameters<ImagesCaller['studio']['frame']>[0];
type PreviewRequest = Parameters<ImagesCaller['studio']['preview']>[0];

/** GET /api/clips/{id}/frame and POST /api/clips/{id}/preview (rest-api.md "Studio"). */
export function studioImagesRouter(deps: AppDeps): Router {
  const images = Router();
  images.get('/clips/:id/frame', (req, res) => {
    const input = { ...(req.query as Record<string, unknown>), id: String(req.params.id) };
    return answerImage(deps, req, res, (caller) => caller.studio.frame(input as FrameRequest));
  });
  images.post('/clips/:id/preview', (req, res) => {
    const input = bodyWithParams(req.body, { id: String(req.params.id) });
    return answerImage(deps, req, res, (caller) => caller.studio.preview(input as PreviewRequest));
  });
  return images;
}
