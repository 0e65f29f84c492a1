import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { AppRouter } from '../trpc/router.ts';

/** Every procedure path of a router record, dotted: "auth.login", "invites.generate"… */
type ProcedurePaths<TRecord> = {
  [K in keyof TRecord & string]: TRecord[K] extends AnyProcedure
    ? K
    : TRecord[K] extends AnyRouter
      ? `${K}.${ProcedurePaths<TRecord[K]['_def']['record']>}`
      : TRecord[K] extends object
        ? `${K}.${ProcedurePaths<TRecord[K]>}`
        : never;
}[keyof TRecord & string];

export type ProcedurePath = ProcedurePaths<AppRouter['_def']['record']>;

export interface RestRequestParts {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** OpenAPI form, e.g. "/streamers/{name}". */
  path: string;
  procedure: ProcedurePath;
  /** HTTP status of success; 200 unless said. */
  status?: number;
  /** Needs a session cookie (answers 401 without). */
  auth: boolean;
  tag: string;
  summary: string;
  /** Builds the procedure input; by default the query string (GET/DELETE) or the JSON body. */
  input?: (parts: RestRequestParts) => unknown;
}

const bodyObject = (body: unknown): Record<string, unknown> =>
  body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

/** Input that is the body when one was sent, else nothing (so the schema's defaults apply). */
const optionalBody = ({ body }: RestRequestParts) => (body === undefined ? undefined : body);
const optionalQuery = ({ query }: RestRequestParts) => (Object.keys(query).length ? query : undefined);

/**
 * The documented REST paths of rest-api.md, each published from one tRPC procedure. Adding a route
 * here publishes it, documents it in /api/openapi.json, and gives it the procedure's validation,
 * auth and errors.
 */
export const REST_ROUTES: RestRoute[] = [
  { method: 'POST', path: '/login', procedure: 'auth.login', auth: false, tag: 'Auth', summary: 'Sign in and receive a session cookie' },
  { method: 'POST', path: '/register', procedure: 'auth.register', status: 201, auth: false, tag: 'Auth', summary: 'Create an account' },
  { method: 'GET', path: '/register', procedure: 'auth.registrationStatus', auth: false, tag: 'Auth', summary: 'Whether registration is open or needs an invite' },
  { method: 'POST', path: '/logout', procedure: 'auth.logout', auth: false, tag: 'Auth', summary: 'End the session', input: () => undefined },
  { method: 'GET', path: '/check-auth', procedure: 'auth.checkAuth', auth: false, tag: 'Auth', summary: 'Whether the cookie holds a valid session' },

  { method: 'POST', path: '/admin/invite-codes/generate', procedure: 'invites.generate', status: 201, auth: true, tag: 'Invite codes', summary: 'Generate an invite code (administrators)', input: optionalBody },
  { method: 'GET', path: '/admin/invite-codes', procedure: 'invites.list', auth: true, tag: 'Invite codes', summary: 'List invite codes, newest first (administrators)', input: optionalQuery },
  { method: 'POST', path: '/admin/invite-codes/cleanup', procedure: 'invites.cleanup', auth: true, tag: 'Invite codes', summary: 'Remove used and expired codes (administrators)', input: () => undefined },

  { method: 'GET', path: '/guest/current-passkey', procedure: 'guests.currentPasskey', auth: true, tag: 'Guests', summary: "The signed-in user's 6-character guest passkey" },
  { method: 'POST', path: '/guest/verify-passkey', procedure: 'guests.verifyPasskey', auth: false, tag: 'Guests', summary: 'Check a guest passkey (rate-limited)', input: ({ body }) => bodyObject(body) },

  { method: 'GET', path: '/streamers', procedure: 'streamers.list', auth: true, tag: 'Streamers', summary: 'Your streamers, sorted by name' },
  { method: 'POST', path: '/streamers', procedure: 'streamers.create', status: 201, auth: true, tag: 'Streamers', summary: 'Add a streamer' },
  {
    method: 'PUT',
    path: '/streamers/{name}',
    procedure: 'streamers.update',
    auth: true,
    tag: 'Streamers',
    summary: "Change a streamer's settings (the name is fixed)",
    input: ({ params, body }) => {
      const fields = bodyObject(body);
      return { ...fields, name: params.name, body_name: typeof fields.name === 'string' ? fields.name : undefined };
    },
  },
  { method: 'DELETE', path: '/streamers/{name}', procedure: 'streamers.delete', auth: true, tag: 'Streamers', summary: 'Delete a streamer (its clips stay in the library)' },

  { method: 'GET', path: '/downloads/status', procedure: 'downloads.status', auth: true, tag: 'Downloads', summary: 'The latest run of every streamer, by name' },
  { method: 'POST', path: '/downloads/start/{name}', procedure: 'downloads.start', status: 202, auth: true, tag: 'Downloads', summary: "Start downloading a streamer's most-viewed clips" },
  { method: 'POST', path: '/downloads/stop/{name}', procedure: 'downloads.stop', auth: true, tag: 'Downloads', summary: 'Stop a running download' },

  { method: 'GET', path: '/clips', procedure: 'clips.list', auth: true, tag: 'Clips', summary: 'A page of your clip library, newest first', input: optionalQuery },
  { method: 'GET', path: '/clips/{id}', procedure: 'clips.details', auth: true, tag: 'Clips', summary: 'One clip with its transcript' },
  { method: 'PUT', path: '/clips/{id}/descriptions', procedure: 'clips.updateDescriptions', auth: true, tag: 'Clips', summary: 'Edit, choose or add descriptions' },
  { method: 'DELETE', path: '/clips/{id}', procedure: 'clips.delete', auth: true, tag: 'Clips', summary: 'Delete a clip and its files' },

  { method: 'POST', path: '/subtitle/{id}', procedure: 'subtitles.generate', auth: true, tag: 'Clips', summary: 'Transcribe a clip and burn in captions; answers when the subtitled video exists' },

  { method: 'POST', path: '/clips/{id}/post', procedure: 'tiktok.post', auth: true, tag: 'Clips', summary: "Post a clip to TikTok (no account: every account linked to the clip's streamer); answers once TikTok accepted or refused it" },
  { method: 'GET', path: '/upload-status/{id}', procedure: 'tiktok.uploadStatus', auth: true, tag: 'Clips', summary: 'Where an upload to TikTok stands' },

  { method: 'GET', path: '/tiktok/auth-url', procedure: 'tiktok.authUrl', auth: true, tag: 'TikTok', summary: "TikTok's authorization URL with a single-use state bound to you (10 minutes)" },
  { method: 'GET', path: '/tiktok/accounts', procedure: 'tiktok.accounts', auth: true, tag: 'TikTok', summary: 'Your TikTok accounts with their linked streamers' },
  { method: 'DELETE', path: '/tiktok/accounts/{id}', procedure: 'tiktok.deleteAccount', auth: true, tag: 'TikTok', summary: 'Remove a TikTok account (its token is revoked at TikTok, best effort)' },
  { method: 'GET', path: '/tiktok/accounts/{id}/linked-streamers', procedure: 'tiktok.linkedStreamers', auth: true, tag: 'TikTok', summary: 'Streamers linked to a TikTok account' },
  { method: 'POST', path: '/streamers/{name}/link-tiktok', procedure: 'tiktok.link', auth: true, tag: 'Streamers', summary: 'Link a TikTok account to a streamer' },
  { method: 'POST', path: '/streamers/{name}/unlink-tiktok', procedure: 'tiktok.unlink', auth: true, tag: 'Streamers', summary: 'Unlink a TikTok account from a streamer' },
  { method: 'POST', path: '/guest/tiktok/auth-url', procedure: 'tiktok.guestAuthUrl', auth: false, tag: 'Guests', summary: "Start connecting a guest's TikTok account to the passkey's owner", input: ({ body }) => bodyObject(body) },

  { method: 'GET', path: '/settings/processing', procedure: 'settings.processing', auth: true, tag: 'Settings', summary: 'Your processing preferences (speech model, clips at once); the defaults with updated_at null until saved' },
  { method: 'PUT', path: '/settings/processing', procedure: 'settings.saveProcessing', auth: true, tag: 'Settings', summary: 'Save your processing preferences; scheduled and automatic work uses them' },

  { method: 'GET', path: '/logs', procedure: 'logs.list', auth: true, tag: 'Logs', summary: 'System log entries, newest first', input: optionalQuery },
  { method: 'GET', path: '/health', procedure: 'health.check', auth: false, tag: 'Health', summary: 'Database and worker health' },
];

/** Routes answering with something other than JSON (files, the OAuth popup page), for the docs. */
export const FILE_ROUTES = [
  { path: '/clips/{id}/video', tag: 'Clips', auth: true, contentType: 'video/mp4', summary: 'The rendered MP4 with HTTP Range support; ?download=1 names it {clip_id}.mp4' },
  { path: '/clips/{id}/thumbnail', tag: 'Clips', auth: true, contentType: 'image/jpeg', summary: 'The clip thumbnail' },
  { path: '/tiktok/callback', tag: 'TikTok', auth: false, contentType: 'text/html', summary: "TikTok's OAuth redirect: a page that tells the opener {type:'tiktok-auth', success, error?} and closes" },
] as const;

/** "/streamers/{name}" → "/streamers/:name" for Express. */
export function toExpressPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}
