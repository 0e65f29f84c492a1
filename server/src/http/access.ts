import { tokenLacksScope, type TokenScope } from '@clipshift/shared';
import { forbidden } from '../platform/errors.ts';
import type { ProcedurePath } from './rest/routes.ts';

/**
 * What an API token may call (docs/decisions/0044-api-tokens-and-scopes.md): the one place each
 * procedure and file route is classified. A scope names what a token needs; `session` routes
 * refuse tokens whatever their scopes (signing in, tokens themselves, connecting platform accounts,
 * guests, webhooks); `public` routes need no one and ignore a token; `token` routes take a token
 * of any scope and nothing else (MCP, whose tools each check their own). Unlisted queries (every GET)
 * need `read`; an unlisted mutation is refused to tokens, so that a new one is closed until
 * someone classifies it (tests/rest/tokens-access.test.ts fails while a REST route is unlisted).
 */
export type Access = TokenScope | 'session' | 'public' | 'token';

/** The file routes served outside the procedure table (rest/routes.ts DIRECT_ROUTES), by operationId. */
type DirectOperation =
  | 'clips.video'
  | 'clips.thumbnail'
  | 'media.video'
  | 'approval.video'
  | 'approval.thumbnail'
  | 'studio.frame'
  | 'studio.preview'
  | 'streamers.saveLogo'
  | 'streamers.logo'
  | 'streamers.deleteLogo'
  | 'tiktok.callback'
  | 'youtube.callback'
  | 'instagram.callback'
  | 'facebook.callback'
  | 'twitch.callback'
  | 'docs.openapi'
  | 'docs.page'
  | 'mcp.endpoint'
  | 'mcp.stream'
  | 'mcp.session';

export type AccessKey = ProcedurePath | DirectOperation;

export const ACCESS: Partial<Record<AccessKey, Access>> = {
  // Signing in and out, registration: a session's business alone.
  'auth.login': 'session',
  'auth.register': 'session',
  'auth.registrationStatus': 'session',
  'auth.logout': 'session',
  'auth.checkAuth': 'session',
  // Tokens never make or see tokens.
  'tokens.create': 'session',
  'tokens.list': 'session',
  'tokens.delete': 'session',
  // Invite codes let people register: they are the admin scope's, reading them included.
  'invites.generate': 'admin',
  'invites.list': 'admin',
  'invites.cleanup': 'admin',
  // Guests connect accounts with a passkey, in a browser.
  'guests.currentPasskey': 'session',
  'guests.startVisit': 'session',
  'guests.verifyPasskey': 'session',
  'tiktok.guestAuthUrl': 'session',
  'youtube.guestAuthUrl': 'session',
  'accounts.guestAuthUrl': 'session',
  // Connecting, removing and linking platform accounts happen in the browser, with a person there.
  'tiktok.authUrl': 'session',
  'youtube.authUrl': 'session',
  'accounts.authUrl': 'session',
  'twitch.authUrl': 'session',
  'twitch.disconnect': 'session',
  'accounts.delete': 'session',
  'tiktok.deleteAccount': 'session',
  'posting.link': 'session',
  'posting.unlink': 'session',
  // A webhook sends the user's events (and holds a signing secret) to any address.
  'webhooks.create': 'session',
  'webhooks.delete': 'session',
  'webhooks.test': 'session',

  'streamers.create': 'write',
  'streamers.update': 'write',
  'streamers.delete': 'write',
  'streamers.saveLogo': 'write',
  'streamers.deleteLogo': 'write',
  'downloads.start': 'write',
  'downloads.stop': 'write',
  'clips.updateDescriptions': 'write',
  'clips.delete': 'write',
  'studio.edit': 'write',
  'studio.updateTranscript': 'write',
  'studio.detect': 'write',
  'studio.detectStreamer': 'write',
  'studio.preview': 'write',
  'subtitles.render': 'write',
  'subtitles.renderStreamer': 'write',
  'subtitles.stopRender': 'write',
  'subtitles.stopStreamerRenders': 'write',
  'subtitles.generate': 'write',
  'review.approve': 'write',
  'review.approveMany': 'write',
  'review.reject': 'write',
  'review.saveAccountSettings': 'write',
  // An approval link is made for someone else to answer: making one is review work.
  'review.share': 'write',
  'settings.saveProcessing': 'write',

  'posting.post': 'post',
  'posting.start': 'post',
  'queue.saveSchedule': 'post',
  'queue.cancel': 'post',
  'queue.postNow': 'post',

  'mcp.endpoint': 'token',
  'mcp.stream': 'public',
  'mcp.session': 'public',

  'health.check': 'public',
  // The OAuth popups come back with the browser's cookie alone: a bearer token there names nobody.
  'tiktok.callback': 'public',
  'youtube.callback': 'public',
  'instagram.callback': 'public',
  'facebook.callback': 'public',
  'twitch.callback': 'public',
  'media.video': 'public',
  // An approval link's page and answers need no one: the link's token is the permission.
  'review.linkPage': 'public',
  'review.approveByLink': 'public',
  'review.rejectByLink': 'public',
  'approval.video': 'public',
  'approval.thumbnail': 'public',
  'docs.openapi': 'public',
  'docs.page': 'public',
};

export const SESSION_ONLY = 'API tokens cannot be used here: this needs a signed-in session in the browser';

/** A procedure's class: its entry, else `read` for a query and `session` (closed) for a mutation. */
export function accessOf(key: string, kind: 'query' | 'mutation' | 'subscription'): Access {
  return ACCESS[key as AccessKey] ?? (kind === 'query' ? 'read' : 'session');
}

/** Refuses (403) a token calling what its scopes do not cover, or what tokens never may. */
export function assertTokenMay(scopes: readonly TokenScope[], access: Access): void {
  if (access === 'public' || access === 'token') return;
  if (access === 'session') throw forbidden(SESSION_ONLY);
  if (!scopes.includes(access)) throw forbidden(tokenLacksScope(access));
}
