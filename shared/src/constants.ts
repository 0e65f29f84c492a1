/** Business constants of the product spec (section 9), shared by client and server. */
export const TOAST_DURATION_MS = 3000;
export const TOAST_FADE_MS = 300;
export const AUTH_CACHE_MS = 5 * 60 * 1000;
export const AUTH_CACHE_KEY = 'auth-state';
export const SETTINGS_STORAGE_KEY = 'app-settings';
export const REDIRECT_DELAY_MS = 100;

export const DASHBOARD_STATUS_POLL_MS = 5_000;
export const DASHBOARD_STREAMER_REFRESH_MS = 30_000;
export const STREAMERS_POLL_MS = 15_000;
export const CLIPS_POLL_MS = 60_000;
export const LOGS_POLL_MS = 10_000;
export const FILTER_DEBOUNCE_MS = 300;
export const SUBTITLE_INFO_TOAST_MS = 10_000;
export const REOPEN_DETAILS_DELAY_MS = 300;

export const CLIP_LIMIT_MIN = 1;
export const CLIP_LIMIT_MAX = 100;
export const CLIP_LIMIT_DEFAULT = 10;
export const DESCRIPTION_MAX_LENGTH = 2200;
export const DEFAULT_CONCURRENCY = 5;
/** Clips one run processes at once, as a user may ask (the server also caps it at WORKER_CONCURRENCY). */
export const CONCURRENCY_MIN = 1;
export const CONCURRENCY_MAX = 20;
export const DEFAULT_WHISPER_MODEL = 'large-v3-turbo';

export const INVITE_DAYS_DEFAULT = 7;
export const INVITE_DAYS_SETTINGS_PAGE = 1;
export const INVITE_DAYS_MAX = 365;
export const INVITE_LIST_LIMIT = 50;

export const OAUTH_POPUP_WIDTH = 600;
export const OAUTH_POPUP_HEIGHT = 700;
export const POST_WIZARD_STEPS = 4;
export const RECENT_LOGS_COUNT = 5;
export const LOG_LIST_MAX_HEIGHT_PX = 600;

/**
 * Log retention: 30 days, and at most the newest N rows of each user; system rows (about no user)
 * have a cap of their own. Per user, so that nobody's entries can push out anybody else's.
 */
export const LOG_RETENTION_DAYS = 30;
export const LOG_RETENTION_ROWS_PER_USER = 50_000;
export const LOG_RETENTION_SYSTEM_ROWS = 50_000;
/** The most calls one tRPC batch may carry (rest-api.md "Hardening rules"); the browser's link splits larger ones. */
export const MAX_TRPC_BATCH = 20;
export const LOG_LIST_DEFAULT_LIMIT = 500;
export const LOG_LIST_MAX_LIMIT = 1000;
