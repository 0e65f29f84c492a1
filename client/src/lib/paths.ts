import { APPROVAL_PAGE_PATH } from '@clipshift/shared';

/** Every route of the app (spec section 2), so links and the router name paths one way. */
export const paths = {
  home: '/',
  login: '/login',
  connect: '/connect',
  tos: '/tos',
  privacy: '/privacy-policy',
  /** An approval link's page (the server makes these links: shared APPROVAL_PAGE_PATH). */
  approval: `${APPROVAL_PAGE_PATH}/:token`,
  app: {
    dashboard: '/app',
    streamers: '/app/streamers',
    clips: '/app/clips',
    review: '/app/review',
    moments: '/app/moments',
    queue: '/app/queue',
    logs: '/app/logs',
    settings: '/app/settings',
    clipStudio: '/app/clips/:clipId/studio',
    streamerStudio: '/app/streamers/:name/studio',
  },
} as const;

/** Sections of the landing page that other pages link to. */
export const landingSections = {
  requestAccess: 'request-access',
  features: 'features',
  howItWorks: 'how-it-works',
  faq: 'faq',
} as const;
type LandingSection = (typeof landingSections)[keyof typeof landingSections];

export function landingSectionPath(section: LandingSection): string {
  return `${paths.home}#${section}`;
}

/** The guest connect page, prefilled with a passkey when one is known. */
export function connectPath(passkey?: string | null): string {
  return passkey ? `${paths.connect}?passkey=${encodeURIComponent(passkey)}` : paths.connect;
}

/**
 * The page a visitor asked for before being sent to log in. Only same-app paths count, so a
 * crafted history state cannot send someone to another site.
 */
export function rememberedPath(state: unknown): string | null {
  if (!state || typeof state !== 'object' || !('from' in state)) return null;
  const from = state.from;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//')) return null;
  return from;
}

export interface RememberedState {
  from: string;
}

/** The query parameter that opens the Streamers screen with its Add Streamer dialog open. */
export const ADD_STREAMER_PARAM = 'add';

export function addStreamerPath(): string {
  return `${paths.app.streamers}?${ADD_STREAMER_PARAM}`;
}

/** The query parameter naming the clip a streamer's studio draws on. */
export const STUDIO_CLIP_PARAM = 'clip';

/** The query parameter naming the studio tab to open. */
export const STUDIO_TAB_PARAM = 'tab';
export const STUDIO_TABS = ['layout', 'captions', 'brand', 'trim', 'transcript'] as const;
export type StudioTab = (typeof STUDIO_TABS)[number];

/** The studio of one clip (its layout, captions, trim and audio), optionally at one tab. */
export function clipStudioPath(clipId: string, tab?: StudioTab): string {
  const path = paths.app.clipStudio.replace(':clipId', encodeURIComponent(clipId));
  return tab ? `${path}?${STUDIO_TAB_PARAM}=${tab}` : path;
}

/** The tab a studio link asked for, when it names one. */
export function studioTabOf(search: URLSearchParams): StudioTab | null {
  const tab = search.get(STUDIO_TAB_PARAM);
  return (STUDIO_TABS as readonly string[]).includes(tab ?? '') ? (tab as StudioTab) : null;
}

/** A streamer's default layout and captions, drawn on one of its clips. */
export function streamerStudioPath(name: string, clipId: string, tab?: StudioTab): string {
  const path = `${paths.app.streamerStudio.replace(':name', encodeURIComponent(name))}?${STUDIO_CLIP_PARAM}=${encodeURIComponent(clipId)}`;
  return tab ? `${path}&${STUDIO_TAB_PARAM}=${tab}` : path;
}

/** The query parameter naming the clip a Clips or Review link opens (its details, or its review card). */
export const CLIP_PARAM = 'clip';

/** The Clips screen with one clip's details open. */
export function clipDetailsPath(clipId: string): string {
  return `${paths.app.clips}?${CLIP_PARAM}=${encodeURIComponent(clipId)}`;
}

/** The review inbox scrolled to one waiting clip. */
export function reviewClipPath(clipId: string): string {
  return `${paths.app.review}?${CLIP_PARAM}=${encodeURIComponent(clipId)}`;
}

/** The Twitch section of Settings (the account that turns moments into clips). */
export const TWITCH_SETTINGS_PATH = `${paths.app.settings}#twitch`;
