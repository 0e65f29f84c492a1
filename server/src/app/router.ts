import { authRouter } from '../http/routers/auth.ts';
import { clipsRouter } from '../http/routers/clips.ts';
import { downloadsRouter } from '../http/routers/downloads.ts';
import { streamersRouter } from '../http/routers/streamers.ts';
import { subtitlesRouter } from '../http/routers/subtitles.ts';
import { tiktokRouter } from '../http/routers/publishing.ts';
import { guestsRouter } from '../http/routers/guests.ts';
import { healthRouter } from '../http/routers/health.ts';
import { invitesRouter } from '../http/routers/invites.ts';
import { logsRouter } from '../http/routers/logs.ts';
import { settingsRouter } from '../http/routers/settings.ts';
import { createCallerFactory, router } from '../http/trpc.ts';

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
