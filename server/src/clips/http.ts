import { existsSync } from 'node:fs';
import { Router, type Request, type Response } from 'express';
import { getTRPCErrorFromUnknown } from '@trpc/server';
import type { AppDeps } from '../deps.ts';
import { sendError } from '../rest/errors.ts';
import { createRequestContext } from '../trpc/context.ts';
import { notFound, unauthorized } from '../trpc/errors.ts';
import { clipFilePath } from './files.ts';
import { findClipRow } from './service.ts';

type ClipFile = 'video' | 'thumbnail';

async function serveClipFile(deps: AppDeps, req: Request, res: Response, file: ClipFile): Promise<void> {
  try {
    const ctx = await createRequestContext(deps, req, res);
    if (!ctx.user) throw unauthorized();
    const clipId = String(req.params.id);
    const row = await findClipRow(deps.db, ctx.user.id, clipId);
    const filePath = clipFilePath(deps.env.dataDir, row.files_dir, file);
    if (!existsSync(filePath)) throw notFound(`The ${file} of clip ${clipId} is missing`);
    if (file === 'video' && req.query.download === '1') {
      // The contract's exact form: a quoted filename, the clip id made header-safe.
      res.setHeader('Content-Disposition', `attachment; filename="${row.clip_id.replace(/[^A-Za-z0-9_.-]/g, '_')}.mp4"`);
    }
    // Files change when a clip is rendered again (e.g. with subtitles): revalidate each time.
    res.setHeader('Cache-Control', 'private, no-cache');
    res.sendFile(filePath, { headers: { 'Content-Type': file === 'video' ? 'video/mp4' : 'image/jpeg' }, acceptRanges: true, lastModified: true }, (error) => {
      if (error && !res.headersSent) void sendError(deps, req, res, getTRPCErrorFromUnknown(error));
    });
  } catch (error) {
    await sendError(deps, req, res, getTRPCErrorFromUnknown(error));
  }
}

/** Video (with Range, so browsers can seek) and thumbnail of the caller's own clips. */
export function clipFilesRouter(deps: AppDeps): Router {
  const router = Router();
  router.get('/clips/:id/video', (req, res) => serveClipFile(deps, req, res, 'video'));
  router.get('/clips/:id/thumbnail', (req, res) => serveClipFile(deps, req, res, 'thumbnail'));
  return router;
}
