import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { LoadingView } from '@/components/loading-view';
import { paths } from '@/lib/paths';
import { RootLayout } from './layout/root-layout';
import { RequireAuth } from './require-auth';
import type { RouteHandle } from './use-document-title';

const titled = (title: string): RouteHandle => ({ title });

/*
 * Each screen is its own chunk: a visitor of the landing page does not download the signed-in
 * app, and the reverse.
 */
const landing = () => import('@/features/landing/landing-page').then((m) => ({ Component: m.LandingPage }));
const login = () => import('@/features/auth/login-page').then((m) => ({ Component: m.LoginPage }));
const connect = () => import('@/features/connect/connect-page').then((m) => ({ Component: m.ConnectPage }));
const terms = () => import('@/features/legal/terms-page').then((m) => ({ Component: m.TermsPage }));
const privacy = () => import('@/features/legal/privacy-page').then((m) => ({ Component: m.PrivacyPage }));
const approval = () => import('@/features/approval/approval-page').then((m) => ({ Component: m.ApprovalPage }));
const dashboard = () => import('@/features/dashboard/dashboard-page').then((m) => ({ Component: m.DashboardPage }));
const streamers = () => import('@/features/streamers/streamers-page').then((m) => ({ Component: m.StreamersPage }));
const clips = () => import('@/features/clips/clips-page').then((m) => ({ Component: m.ClipsPage }));
const studio = () => import('@/features/studio/studio-page').then((m) => ({ Component: m.StudioPage }));
const review = () => import('@/features/clips/review/review-page').then((m) => ({ Component: m.ReviewPage }));
const moments = () => import('@/features/moments/moments-page').then((m) => ({ Component: m.MomentsPage }));
const queue = () => import('@/features/queue/queue-page').then((m) => ({ Component: m.QueuePage }));
const logs = () => import('@/features/logs/logs-page').then((m) => ({ Component: m.LogsPage }));
const settings = () => import('@/features/settings/settings-page').then((m) => ({ Component: m.SettingsPage }));

/** The route table of spec section 2; /app routes sit behind the auth guard. */
const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    hydrateFallbackElement: <LoadingView />,
    children: [
      { path: paths.home, lazy: landing, handle: titled('Turn Twitch clips into TikToks and YouTube Shorts') },
      { path: paths.login, lazy: login, handle: titled('Login') },
      { path: paths.connect, lazy: connect, handle: titled('Connect an account') },
      { path: paths.tos, lazy: terms, handle: titled('Terms of Service') },
      { path: paths.privacy, lazy: privacy, handle: titled('Privacy Policy') },
      { path: paths.approval, lazy: approval, handle: titled('Approve a clip') },
      {
        element: <RequireAuth />,
        children: [
          { path: paths.app.dashboard, lazy: dashboard, handle: titled('Dashboard') },
          { path: paths.app.streamers, lazy: streamers, handle: titled('Streamers') },
          { path: paths.app.clips, lazy: clips, handle: titled('Clips') },
          { path: paths.app.clipStudio, lazy: studio, handle: titled('Studio') },
          { path: paths.app.streamerStudio, lazy: studio, handle: titled('Studio') },
          { path: paths.app.review, lazy: review, handle: titled('Review') },
          { path: paths.app.moments, lazy: moments, handle: titled('Moments') },
          { path: paths.app.queue, lazy: queue, handle: titled('Queue') },
          { path: paths.app.logs, lazy: logs, handle: titled('Logs') },
          { path: paths.app.settings, lazy: settings, handle: titled('Settings') },
        ],
      },
      { path: '*', element: <Navigate to={paths.home} replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
