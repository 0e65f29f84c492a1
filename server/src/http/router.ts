import { accountsRouter } from './routers/accounts.ts';
import { authRouter } from './routers/auth.ts';
import { clipsRouter } from './routers/clips.ts';
import { downloadsRouter } from './routers/downloads.ts';
import { fontsRouter } from './routers/fonts.ts';
import { streamersRouter } from './routers/streamers.ts';
import { studioRouter } from './routers/studio.ts';
import { subtitlesRouter } from './routers/subtitles.ts';
import { postingRouter, tiktokRouter, youtubeRouter } from './routers/publishing.ts';
import { guestsRouter } from './routers/guests.ts';
import { healthRouter } from './routers/health.ts';
import { invitesRouter } from './routers/invites.ts';
import { logsRouter } from './routers/logs.ts';
import { settingsRouter } from './routers/settings.ts';
import { webhooksRouter } from './routers/notifications.ts';
import { reviewRouter } from './routers/review.ts';
import { queueRouter } from './routers/queue.ts';
import { twitchRouter } from './routers/twitch.ts';
import { momentsRouter } from './routers/moments.ts';
import { tokensRouter } from './routers/tokens.ts';
import { createCallerFactory, router } from './trpc.ts';

/** The one router of domain procedures; REST routes call into it (see rest/routes.ts). */
export const appRouter = router({
  auth: authRouter,
  invites: invitesRouter,
  guests: guestsRouter,
  logs: logsRouter,
  streamers: streamersRouter,
  downloads: downloadsRouter,
  clips: clipsRouter,
  fonts: fontsRouter,
  studio: studioRouter,
  subtitles: subtitlesRouter,
  posting: postingRouter,
  tiktok: tiktokRouter,
  youtube: youtubeRouter,
  accounts: accountsRouter,
  health: healthRouter,
  settings: settingsRouter,
  webhooks: webhooksRouter,
  review: reviewRouter,
  queue: queueRouter,
  twitch: twitchRouter,
  moments: momentsRouter,
  tokens: tokensRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
