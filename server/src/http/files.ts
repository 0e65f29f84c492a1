import { MEDIA_EXPIRED_MESSAGE, type Clip } from '@clipshift/shared';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import { TRPCError } from '@trpc/server';
import type { AppDeps } from '../domains/deps.ts';
import { sendClientError, sendError } from './rest/errors.ts';
import { createRequestContext } from './context.ts';
import { databaseUnavailable, notFound, unauthorized } from '../platform/errors.ts';
import { CLIP_CONTENT_TYPES, clipKey, findClipRow, MEDIA_LINK_GONE, mediaLinkVideo, type ClipFile } from '../domains/clips/service.ts';
import { approvalLinkFile, LINK_FILE_GONE, type LinkFile } from '../domains/review/service.ts';
import { storageErrors } from '../platform/metrics.ts';
import { StorageMissing, type StoredObject } from '../platform/storage/index.ts';

/** What the web serves of a clip (sources stay private). */
type ServedFile = Exclude<ClipFile, 'source'>;

const RANGE_NOT_SATISFIABLE = 'The requested range is not satisfiable';
/** A platform fetching a media link may re-read what it fetched for this long; the link itself lasts 2 hours. */
const MEDIA_LINK_CACHE_SECONDS = 300;
/** The Range form `send` (behind res.sendFile) serves; any other unit is ignored, as RFC 9110 asks. */
const BYTES_RANGE = /^ *bytes=/;

async function fileSize(filePath: string): Promise<number | null> {
  try {
    const info = await stat(filePath);
    return info.isFile() ? info.size : null;
  } catch {
    return null;
  }
}

/**
 * A bytes Range that no part of the file satisfies, or that cannot be parsed. `send` would answer
 * the first with a bare error and ignore the second; both get 416. Under If-Range `send` decides,
 * since a stale validator means the whole (new) file is wanted, whatever the range says.
 */
function refusesRange(req: Request, size: number): boolean {
  const header = req.headers.range;
  if (!header || !BYTES_RANGE.test(header) || req.headers['if-range'] !== undefined) return false;
  const ranges = req.range(size, { combine: true });
  return ranges === -1 || ranges === -2;
}

function sendRangeNotSatisfiable(deps: AppDeps, req: Request, res: Response, size: number): void {
  res.setHeader('Content-Range', `bytes */${size}`);
  sendClientError(deps, req, res, 416, 'RANGE_NOT_SATISFIABLE', RANGE_NOT_SATISFIABLE);
}

/** One stored file to answer with, and the words of its 404 and 412. */
interface ServedObject {
  key: string;
  contentType: string;
  missing: string;
  changed: string;
}

const changedError = (file: ServedObject) => new TRPCError({ code: 'PRECONDITION_FAILED', message: file.changed });

/** What `send` failed with, as the contract's error; `send` marks client errors with an HTTP status. */
function sendFailure(deps: AppDeps, req: Request, res: Response, error: Error & { status?: number; code?: string }, size: number, file: ServedObject): void {
  // The client went away: nobody is left to answer, and nothing went wrong here.
  if (error.code === 'ECONNABORTED') return;
  if (error.status === 416) sendRangeNotSatisfiable(deps, req, res, size);
  else if (error.status === 404) void sendError(deps, req, res, notFound(file.missing));
  else if (error.status === 412) void sendError(deps, req, res, changedError(file));
  else {
    storageErrors.inc({ operation: 'read' });
    void sendError(deps, req, res, error);
  }
}

async function serveClipFile(deps: AppDeps, req: Request, res: Response, file: ServedFile): Promise<void> {
  try {
    const ctx = await createRequestContext(deps, req, res);
    // A session that could not be looked up is no missing session: the client must not sign in again.
    if (ctx.sessionUnknown) throw databaseUnavailable();
    if (!ctx.user) throw unauthorized();
    const clipId = String(req.params.id);
    const row = await findClipRow(deps.db, ctx.user.id, clipId);
    if (file === 'video' && row.media_expired_at) throw notFound(MEDIA_EXPIRED_MESSAGE);
    const what = `The ${file} of clip ${clipId}`;
    if (file === 'video' && req.query.download === '1') {
      // The contract's exact form: a quoted filename, the clip id made header-safe.
      res.setHeader('Content-Disposition', `attachment; filename="${row.clip_id.replace(/[^A-Za-z0-9_.-]/g, '_')}.mp4"`);
    }
    // Files change when a clip is rendered again (e.g. with subtitles): revalidate each time.
    res.setHeader('Cache-Control', 'private, no-cache');
    await serveStoredFile(deps, req, res, { key: clipKey(row.files_dir, file), contentType: CLIP_CONTENT_TYPES[file], missing: `${what} is missing`, changed: `${what} has changed` });
  } catch (error) {
    await sendError(deps, req, res, error);
  }
}

/** A stored file with Range, validators and conditional requests, from disk or from the bucket alike. */
async function serveStoredFile(deps: AppDeps, req: Request, res: Response, file: ServedObject): Promise<void> {
  res.setHeader('Content-Type', file.contentType);
  const filePath = deps.storage.localPath(file.key);
  if (filePath) await sendLocalFile(deps, req, res, filePath, file);
  else await streamStoredObject(deps, req, res, file);
}

/** A file on this machine's disk, through `send` (conditional requests, Range, validators). */
async function sendLocalFile(deps: AppDeps, req: Request, res: Response, filePath: string, file: ServedObject): Promise<void> {
  const size = await fileSize(filePath);
  if (size === null) throw notFound(file.missing);
  if (refusesRange(req, size)) {
    sendRangeNotSatisfiable(deps, req, res, size);
    return;
  }
  res.sendFile(filePath, { acceptRanges: true, lastModified: true }, (error) => {
    if (error && !res.headersSent) sendFailure(deps, req, res, error, size, file);
  });
}

/**
 * An object in the bucket, streamed through this server with the same HTTP behaviour as a local
 * file: validators, 304, 412, one byte range (206) or the whole (several ranges are served whole,
 * as `send` does). Streaming rather than redirecting keeps the bucket private and reachable only
 * by the app (docs/decisions/0020-object-storage.md).
 */
async function streamStoredObject(deps: AppDeps, req: Request, res: Response, file: ServedObject): Promise<void> {
  const { key } = file;
  const object = await deps.storage.head(key);
  if (!object) throw notFound(file.missing);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('ETag', object.etag);
  res.setHeader('Last-Modified', object.modified.toUTCString());
  if (failsPrecondition(req, object)) throw changedError(file);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  if (refusesRange(req, object.size)) {
    sendRangeNotSatisfiable(deps, req, res, object.size);
    return;
  }
  const range = wantedRange(req, object);
  if (range) {
    res.status(206);
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${object.size}`);
  }
  res.setHeader('Content-Length', String(range ? range.end - range.start + 1 : object.size));
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  let body;
  try {
    body = await deps.storage.read(key, range ?? undefined);
  } catch (error) {
    // Deleted between the HEAD and the GET.
    if (error instanceof StorageMissing) throw notFound(file.missing);
    throw error;
  }
  try {
    await pipeline(body, res);
  } catch (error) {
    // The client went away mid-file (seeking does that): nothing is wrong with the bucket.
    if (res.destroyed && (error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    storageErrors.inc({ operation: 'read' });
    deps.logger.warn({ err: error, key }, 'streaming a stored file failed mid-way');
    res.destroy();
  }
}

/** If-Match / If-Unmodified-Since naming another version of the object. */
function failsPrecondition(req: Request, object: StoredObject): boolean {
  const ifMatch = req.headers['if-match'];
  if (ifMatch && ifMatch.trim() !== '*') {
    const tags = ifMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
    if (!tags.includes(object.etag.replace(/^W\//, ''))) return true;
  }
  const since = req.headers['if-unmodified-since'];
  if (!ifMatch && since) {
    const date = Date.parse(since);
    if (!Number.isNaN(date) && Math.floor(object.modified.getTime() / 1000) > Math.floor(date / 1000)) return true;
  }
  return false;
}

/** The one byte range to send, or null for the whole object (no Range, a stale If-Range, several ranges). */
function wantedRange(req: Request, object: StoredObject): { start: number; end: number } | null {
  const header = req.headers.range;
  if (!header || !BYTES_RANGE.test(header)) return null;
  const ifRange = req.headers['if-range'];
  if (ifRange !== undefined && !rangeValidatorMatches(String(ifRange), object)) return null;
  const ranges = req.range(object.size, { combine: true });
  if (!Array.isArray(ranges) || ranges.length !== 1) return null;
  return { start: ranges[0]!.start, end: ranges[0]!.end };
}

function rangeValidatorMatches(ifRange: string, object: StoredObject): boolean {
  if (ifRange.includes('"')) return ifRange.trim() === object.etag;
  const date = Date.parse(ifRange);
  return !Number.isNaN(date) && Math.floor(object.modified.getTime() / 1000) <= Math.floor(date / 1000);
}

/** Where clipFilesRouter serves a clip's files, as the clip's API answers name them (domains never build URLs). */
type ClipFileUrls = Pick<Clip, 'thumbnail' | 'video_url' | 'video'>;

export function clipFileUrls(clipId: string): ClipFileUrls {
  const base = `/api/clips/${encodeURIComponent(clipId)}`;
  return { thumbnail: `${base}/thumbnail`, video_url: `${base}/video`, video: `${base}/video?download=1` };
}

/**
 * A media link's video (publicMediaUrl), for a platform that fetches it by URL: no session, the
 * signed token alone decides. Never cached beyond a few minutes by the one who fetched it; the
 * token, not a path, names the file, so nothing outside the clip's video can be reached.
 */
async function serveMediaLink(deps: AppDeps, req: Request, res: Response): Promise<void> {
  try {
    const key = await mediaLinkVideo(deps, String(req.params.token));
    res.setHeader('Cache-Control', `private, max-age=${MEDIA_LINK_CACHE_SECONDS}`);
    await serveStoredFile(deps, req, res, { key, contentType: CLIP_CONTENT_TYPES.video, missing: MEDIA_LINK_GONE, changed: 'The video has changed' });
  } catch (error) {
    await sendError(deps, req, res, error);
  }
}

/** GET (and HEAD) /api/media/{token}: nothing on its way reads a session or the Origin of a GET. */
export function mediaLinkRouter(deps: AppDeps): Router {
  const router = Router();
  router.get('/media/:token', (req, res) => serveMediaLink(deps, req, res));
  return router;
}

/** Where an open approval link's video and picture are served (the link's page names them). */
export function approvalLinkFileUrl(token: string, file: LinkFile): string {
  return `/api/approval/${encodeURIComponent(token)}/${file}`;
}

/**
 * An open approval link's video or picture, for whoever holds the link: no session, the link's
 * token alone decides, looked up on every request so that the file stops with the link (answered,
 * replaced, expired). Revalidated each time, so nothing is kept once the link ends.
 */
async function serveApprovalLinkFile(deps: AppDeps, req: Request, res: Response, file: LinkFile): Promise<void> {
  try {
    const ctx = await createRequestContext(deps, req, res);
    const key = await approvalLinkFile(deps, String(req.params.token), ctx.meta.ip, file);
    res.setHeader('Cache-Control', 'private, no-cache');
    await serveStoredFile(deps, req, res, { key, contentType: CLIP_CONTENT_TYPES[file], missing: LINK_FILE_GONE, changed: `The ${file} has changed` });
  } catch (error) {
    await sendError(deps, req, res, error);
  }
}

/** GET (and HEAD) /api/approval/{token}/video and /thumbnail: nothing on the way needs a session. */
export function approvalLinkFilesRouter(deps: AppDeps): Router {
  const router = Router();
  router.get('/approval/:token/video', (req, res) => serveApprovalLinkFile(deps, req, res, 'video'));
  router.get('/approval/:token/thumbnail', (req, res) => serveApprovalLinkFile(deps, req, res, 'thumbnail'));
  return router;
}

/** Video (with Range, so browsers can seek) and thumbnail of the caller's own clips. */
export function clipFilesRouter(deps: AppDeps): Router {
  const router = Router();
  router.get('/clips/:id/video', (req, res) => serveClipFile(deps, req, res, 'video'));
  router.get('/clips/:id/thumbnail', (req, res) => serveClipFile(deps, req, res, 'thumbnail'));
  return router;
}
