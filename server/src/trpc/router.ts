import { authRouter } from '../auth/router.ts';
import { clipsRouter } from '../clips/router.ts';
import { downloadsRouter } from '../downloads/router.ts';
import { streamersRouter } from '../streamers/router.ts';
import { subtitlesRouter } from '../subtitles/router.ts';
import { tiktokRouter } from '../tiktok/router.ts';
import { guestsRouter } from '../guests/router.ts';
import { healthRouter } from '../health/router.ts';
import { invitesRouter } from '../invites/router.ts';
import { logsRouter } from '../logs/router.ts';
import { settingsRouter } from '../settings/router.ts';
import { createCallerFactory, router } from './init.ts';

/** The one router of domain procedures; REST routes call into it (see rest/routes.ts). */
export const appRouter = router({
  auth: authRouter,
  invites: invitesRouter,
  guests: guestsRouter,
  logs: logsRouter,
  streamers: streamersRouter,
  downloads: downloadsRouter,
  clips: clipsRouter,
  subtitles: subtitlesRouter,
  tiktok: tiktokRouter,
  health: healthRouter,
  settings: settingsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
