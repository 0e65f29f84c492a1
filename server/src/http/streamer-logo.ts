import express, { Router, type Request, type Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { LOGO_MAX_BYTES, streamerNameInput } from '@clipshift/shared';
import { z } from 'zod';
import type { AppDeps } from '../domains/deps.ts';
import { deleteStreamerLogo, LOGO_TOO_LARGE, saveStreamerLogo, streamerLogo } from '../domains/streamers/service.ts';
import { PROCESS_IDENTITY } from '../platform/identity.ts';
import { createRequestContext } from './context.ts';
import { clientErrorOf, rejectCrossSite } from './middleware.ts';
import { httpError, sendError } from './rest/errors.ts';
import { authedProcedure, createCallerFactory, router } from './trpc.ts';

/*
 * PUT/GET/DELETE /api/streamers/{name}/logo: the one route whose body is not JSON (an image/png or
 * image/jpeg body of at most 2 MB). It is mounted before the JSON-only guard and runs its work as
 * procedures through a caller, so sign-in and error mapping are those of every other route.
 */
// Nested under `streamers` so that the procedure paths are the routes' operationIds (access.ts).
const logoRouter = router({
  streamers: router({
    saveLogo: authedProcedure
      .input(streamerNameInput.extend({ type: z.string().optional(), bytes: z.instanceof(Buffer) }))
      .mutation(({ ctx, input }) => saveStreamerLogo(ctx.deps, ctx.user.id, input.name, { type: input.type, bytes: input.bytes }, PROCESS_IDENTITY.instance)),
    logo: authedProcedure.input(streamerNameInput).query(({ ctx, input }) => streamerLogo(ctx.deps, ctx.user.id, input.name)),
    deleteLogo: authedProcedure.input(streamerNameInput).mutation(({ ctx, input }) => deleteStreamerLogo(ctx.deps, ctx.user.id, input.name)),
  }),
});
const createLogoCaller = createCallerFactory(logoRouter);
type LogoCaller = ReturnType<typeof createLogoCaller>;

async function withCaller(deps: AppDeps, req: Request, res: Response, work: (caller: LogoCaller) => Promise<void>): Promise<void> {
  try {
    await work(createLogoCaller(await createRequestContext(deps, req, res)));
  } catch (error) {
    await sendError(deps, req, res, error);
  }
}

/** The image body, read whole up to one byte past the limit (so a larger one is told so, not cut). */
const readImageBody = express.raw({ type: () => true, limit: LOGO_MAX_BYTES + 1 });

export function streamerLogoRouter(deps: AppDeps): Router {
  const logos = Router();
  const path = '/streamers/:name/logo';
  logos.put(path, rejectCrossSite(deps), (req, res, next) => {
    readImageBody(req, res, (error?: unknown) => {
      if (error) {
        // The body could not be read (too large, an encoding it cannot undo): the HTTP layer's 4xx.
        const tooLarge = (error as { type?: string }).type === 'entity.too.large';
        void sendError(deps, req, res, tooLarge ? httpError('PAYLOAD_TOO_LARGE', LOGO_TOO_LARGE) : (clientErrorOf(error) ?? error));
        return;
      }
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const type = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      void withCaller(deps, req, res, async (caller) => {
        res.json(await caller.streamers.saveLogo({ name: String(req.params.name), type, bytes }));
      }).catch(next);
    });
  });
  logos.get(path, (req, res, next) => {
    void withCaller(deps, req, res, async (caller) => {
      const logo = await caller.streamers.logo({ name: String(req.params.name) });
      res.status(200).setHeader('Cache-Control', 'private, no-cache');
      res.type(logo.type).setHeader('Content-Length', String(logo.bytes));
      await pipeline(logo.body, res);
    }).catch(next);
  });
  logos.delete(path, rejectCrossSite(deps), (req, res, next) => {
    void withCaller(deps, req, res, async (caller) => {
      res.json(await caller.streamers.deleteLogo({ name: String(req.params.name) }));
    }).catch(next);
  });
  return logos;
}
