import type { AnyProcedure, AnyRouter } from '@trpc/server';
import { LOGO_TYPES, NAME_CANNOT_CHANGE, previewClipInput, QUERY_NUMBER_PATTERN, upload } from '@clipshift/shared';
import { z } from 'zod';
import type { AppRouter } from '../router.ts';

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

/** The error statuses a route may answer, besides its success status. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 412 | 413 | 415 | 416 | 429 | 431 | 502 | 503;

/**
 * What an error status means on one route; `body` names the fields its error body adds to {error,
 * message, code}: the constant `fields`, and those of the failure's details (AppError.details) that
 * `body` names. Routes choose the shape of their answers; domains only say what went wrong.
 */
export type ErrorMeaning = string | { description: string; body: z.ZodObject; fields?: Record<string, unknown> };

export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** OpenAPI form, e.g. "/streamers/{name}". */
  path: string;
  procedure: ProcedurePath;
  /** HTTP status of success; 200 unless said. */
  status?: number;
  /** Needs a session cookie (answers 401 without). */
  auth: boolean;
  /** Administrators only: anybody else gets 403. */
  admin?: boolean;
  /** Attempts are limited per client or account: 429 with Retry-After. */
  throttled?: boolean;
  /**
   * The error statuses this route's procedure answers beyond those every route of its kind answers
   * (openapi.ts `errorStatusesOf`), with what they mean here.
   */
  errors?: Partial<Record<ErrorStatus, ErrorMeaning>>;
  /**
   * Path parameters the JSON body may repeat (the contract lets PUT /streamers/{name} send its
   * name): a different value answers 400 with this message. Any other body field named like a path
   * parameter is ignored, as every unknown field is.
   */
  bodyMayRepeat?: Record<string, string>;
  tag: string;
  summary: string;
}

const HELD_BY_JOB =
  'The work is taking longer than the call waits (3 minutes), the server is restarting, or the database is unavailable: the work carries on, ask again in a minute';
/** The subtitle route answers its failures with {ok:false} besides the error (the contract's shape). */
const subtitleFailure = (description: string) => ({ description, body: z.object({ ok: z.literal(false) }), fields: { ok: false } });

/**
 * The documented REST paths of rest-api.md, each published from one tRPC procedure. Adding a route
 * here publishes it, documents it in /api/openapi.json, and gives it the procedure's validation,
 * auth and errors. The input of the procedure is the JSON body (POST, PUT) or the query string
 * (GET, DELETE), with the path parameters on top; a procedure without input gets nothing.
 */
export const REST_ROUTES: RestRoute[] = [
  {
    method: 'POST',
    path: '/login',
    procedure: 'auth.login',
    auth: false,
    throttled: true,
    errors: { 401: 'Invalid username or password' },
    tag: 'Auth',
    summary: 'Sign in and receive a session cookie',
  },
  {
    method: 'POST',
    path: '/register',
    procedure: 'auth.register',
    status: 201,
    auth: false,
    throttled: true,
    errors: { 403: 'Registration is closed, or a cross-site request', 409: 'Username is already taken' },
    tag: 'Auth',
    summary: 'Create an account',
  },
  { method: 'GET', path: '/register', procedure: 'auth.registrationStatus', auth: false, tag: 'Auth', summary: 'Whether registration is open or needs an invite' },
  { method: 'POST', path: '/logout', procedure: 'auth.logout', auth: false, tag: 'Auth', summary: 'End the session' },
  { method: 'GET', path: '/check-auth', procedure: 'auth.checkAuth', auth: false, tag: 'Auth', summary: 'Whether the cookie holds a valid session' },

  { method: 'POST', path: '/admin/invite-codes/generate', procedure: 'invites.generate', status: 201, auth: true, admin: true, tag: 'Invite codes', summary: 'Generate an invite code (administrators)' },
  { method: 'GET', path: '/admin/invite-codes', procedure: 'invites.list', auth: true, admin: true, tag: 'Invite codes', summary: 'List invite codes, newest first (administrators)' },
  { method: 'POST', path: '/admin/invite-codes/cleanup', procedure: 'invites.cleanup', auth: true, admin: true, tag: 'Invite codes', summary: 'Remove used and expired codes (administrators)' },

  { method: 'GET', path: '/guest/current-passkey', procedure: 'guests.currentPasskey', auth: true, tag: 'Guests', summary: "The signed-in user's 6-character guest passkey" },
  {
    method: 'POST',
    path: '/guest/visit',
    procedure: 'guests.startVisit',
    auth: false,
    tag: 'Guests',
    summary:
      "Start a guest visit (the /connect page calls it when it opens): the browser's device cookie gets an entry that gives it its own budget for wrong passkeys, so others guessing from the same address do not spend it",
  },
  {
    method: 'POST',
    path: '/guest/verify-passkey',
    procedure: 'guests.verifyPasskey',
    auth: false,
    throttled: true,
    errors: { 404: 'Invalid passkey' },
    tag: 'Guests',
    summary: 'Check a guest passkey (rate-limited)',
  },

  { method: 'GET', path: '/streamers', procedure: 'streamers.list', auth: true, tag: 'Streamers', summary: 'Your streamers, sorted by name' },
  {
    method: 'POST',
    path: '/streamers',
    procedure: 'streamers.create',
    status: 201,
    auth: true,
    errors: { 409: 'The streamer already exists', 502: 'Twitch could not be asked whether the streamer exists' },
    tag: 'Streamers',
    summary: 'Add a streamer',
  },
  {
    method: 'PUT',
    path: '/streamers/{name}',
    procedure: 'streamers.update',
    auth: true,
    errors: { 404: 'No such streamer', 409: 'Clips of the streamer are being downloaded' },
    bodyMayRepeat: { name: NAME_CANNOT_CHANGE },
    tag: 'Streamers',
    summary: "Change a streamer's settings (the name is fixed)",
  },
  {
    method: 'DELETE',
    path: '/streamers/{name}',
    procedure: 'streamers.delete',
    auth: true,
    errors: { 404: 'No such streamer', 409: 'Clips of the streamer are being downloaded' },
    tag: 'Streamers',
    summary: 'Delete a streamer (its clips stay in the library)',
  },

  { method: 'GET', path: '/downloads/status', procedure: 'downloads.status', auth: true, tag: 'Downloads', summary: 'The latest run of every streamer, by name' },
  {
    method: 'POST',
    path: '/downloads/start/{name}',
    procedure: 'downloads.start',
    status: 202,
    auth: true,
    errors: { 404: 'No such streamer', 409: 'Clips of the streamer are already being downloaded, or the server has less free disk space than MIN_FREE_DISK_MB' },
    tag: 'Downloads',
    summary: "Start downloading a streamer's most-viewed clips",
  },
  {
    method: 'POST',
    path: '/downloads/stop/{name}',
    procedure: 'downloads.stop',
    auth: true,
    errors: { 404: 'No such streamer', 409: 'No download is running for the streamer' },
    tag: 'Downloads',
    summary: 'Stop a running download',
  },

  { method: 'GET', path: '/clips', procedure: 'clips.list', auth: true, tag: 'Clips', summary: 'A page of your clip library, newest first' },
  { method: 'GET', path: '/fonts', procedure: 'fonts.list', auth: true, tag: 'Studio', summary: 'The fonts captions can use, with the scripts each covers' },
  { method: 'GET', path: '/clips/{id}', procedure: 'clips.details', auth: true, errors: { 404: 'No such clip' }, tag: 'Clips', summary: 'One clip with its transcript' },
  {
    method: 'PUT',
    path: '/clips/{id}/descriptions',
    procedure: 'clips.updateDescriptions',
    auth: true,
    errors: { 404: 'No such clip' },
    tag: 'Clips',
    summary: 'Edit, choose or add descriptions',
  },
  { method: 'DELETE', path: '/clips/{id}', procedure: 'clips.delete', auth: true, errors: { 404: 'No such clip' }, tag: 'Clips', summary: 'Delete a clip and its files' },
  {
    method: 'PUT',
    path: '/clips/{id}/edit',
    procedure: 'studio.edit',
    auth: true,
    errors: { 400: 'A bad region, a trim outside the clip or under 1 s, a split layout without a facecam region, an unknown font, or a format other than vertical, horizontal or null', 404: 'No such clip' },
    tag: 'Studio',
    summary: "Change the clip's own format (vertical or horizontal; null = as downloaded), layout, regions, caption style, trim and loudness (null = the streamer's)",
  },
  {
    method: 'GET',
    path: '/clips/{id}/transcript',
    procedure: 'studio.transcript',
    auth: true,
    errors: { 404: 'No such clip, or it has no transcript yet' },
    tag: 'Studio',
    summary: "The clip's words with their times (seconds from the source's start)",
  },
  {
    method: 'PUT',
    path: '/clips/{id}/transcript',
    procedure: 'studio.updateTranscript',
    auth: true,
    errors: { 400: 'Times not increasing, a word outside the clip, or a word without text', 404: 'No such clip, or it has no transcript yet' },
    tag: 'Studio',
    summary: 'Save corrected words: the next render burns them, and re-renders keep them',
  },

  {
    method: 'POST',
    path: '/clips/{id}/detect',
    procedure: 'studio.detect',
    auth: true,
    errors: { 404: 'No such clip, or its source video is missing', 409: "The clip's video files were deleted by retention", 429: 'Too many previews are being made at once on this server: try again after Retry-After seconds' },
    tag: 'Studio',
    summary: "Look for the streamer's camera in the clip's source as the auto layout does: its rectangle (null: none), the gameplay, how sure, and the layout auto would render; nothing is saved",
  },
  {
    method: 'POST',
    path: '/streamers/{name}/detect',
    procedure: 'studio.detectStreamer',
    auth: true,
    errors: { 404: 'No such streamer', 409: 'No clips of the streamer to look at yet', 429: 'Too many previews are being made at once on this server: try again after Retry-After seconds' },
    tag: 'Studio',
    summary: "Look for the streamer's camera in up to 5 of its newest clips: the rectangle most of them agree on (null: none), how sure, and how many were checked; nothing is saved",
  },
  {
    method: 'POST',
    path: '/clips/{id}/render',
    procedure: 'subtitles.render',
    status: 202,
    auth: true,
    errors: { 404: 'No such clip', 409: 'A render or subtitle job of the clip is already running' },
    tag: 'Studio',
    summary: 'Render the clip again from its source with its settings, in one encode; the clip shows the progress',
  },
  {
    method: 'POST',
    path: '/streamers/{name}/render',
    procedure: 'subtitles.renderStreamer',
    status: 202,
    auth: true,
    errors: { 404: 'No such streamer' },
    tag: 'Studio',
    summary: "Apply the streamer's look (layout, regions, captions, brand) to its clips not yet posted: one re-render each through the render slots, each clip showing its progress; clips already rendering are left to finish",
  },
  {
    method: 'POST',
    path: '/streamers/{name}/render/stop',
    procedure: 'subtitles.stopStreamerRenders',
    auth: true,
    errors: { 404: 'No such streamer', 409: 'No renders of the streamer are running' },
    tag: 'Studio',
    summary: "Stop every queued or running re-render of the streamer's clips: each keeps its previous video",
  },
  {
    method: 'POST',
    path: '/clips/{id}/render/stop',
    procedure: 'subtitles.stopRender',
    auth: true,
    errors: { 404: 'No such clip', 409: 'No render is running for the clip' },
    tag: 'Studio',
    summary: 'Stop the running re-render: the clip keeps its previous video',
  },

  {
    method: 'POST',
    path: '/subtitle/{id}',
    procedure: 'subtitles.generate',
    auth: true,
    errors: {
      404: subtitleFailure('No such clip, or it was deleted meanwhile'),
      409: subtitleFailure('Subtitles for the clip are already being generated, or it is being rendered'),
      502: subtitleFailure('Transcription failed (the message names why, in plain words)'),
      503: subtitleFailure(HELD_BY_JOB),
    },
    tag: 'Clips',
    summary: 'Transcribe a clip and burn in captions; answers when the subtitled video exists',
  },

  {
    method: 'POST',
    path: '/clips/{id}/post',
    procedure: 'posting.post',
    auth: true,
    errors: {
      400: 'A YouTube account without youtube_privacy, a title over 100 characters, or a video the platform would refuse (postPreflight: landscape or over 3 minutes for YouTube Shorts, too large)',
      404: 'No such clip or account',
      409: 'The clip is already posted or being posted to that account',
      502: { description: 'The platform refused the video (the message gives its reason)', body: z.object({ uploads: z.array(upload).optional() }) },
      503: HELD_BY_JOB,
    },
    tag: 'Clips',
    summary:
      "Post a clip to accounts of any platform (TikTok, YouTube, Instagram, Facebook Pages; account_ids, or none: every account linked to the clip's streamer) with each platform's options; answers once each platform accepted or refused it, or the post waits for YouTube's daily quota or Instagram's publishing limit (status scheduled)",
  },
  { method: 'GET', path: '/upload-status/{id}', procedure: 'posting.uploadStatus', auth: true, errors: { 404: 'No such upload' }, tag: 'Clips', summary: 'Where an upload to any platform stands' },

  {
    method: 'GET',
    path: '/tiktok/auth-url',
    procedure: 'tiktok.authUrl',
    auth: true,
    errors: { 503: 'TikTok is not configured on this server, or the database is unavailable' },
    tag: 'TikTok',
    summary: "TikTok's authorization URL with a single-use state bound to you (10 minutes)",
  },
  {
    method: 'GET',
    path: '/youtube/status',
    procedure: 'youtube.status',
    auth: true,
    tag: 'YouTube',
    summary: 'Whether YouTube channels can be connected on this server, with the reason when they cannot',
  },
  {
    method: 'GET',
    path: '/youtube/auth-url',
    procedure: 'youtube.authUrl',
    auth: true,
    errors: { 503: 'YouTube is not configured on this server (YOUTUBE_CLIENT_ID and YOUTUBE_CLIENT_SECRET), or the database is unavailable' },
    tag: 'YouTube',
    summary: "Google's authorization URL (offline access, consent) with a single-use state bound to you and to YouTube (10 minutes)",
  },
  {
    method: 'POST',
    path: '/guest/youtube/auth-url',
    procedure: 'youtube.guestAuthUrl',
    auth: false,
    throttled: true,
    errors: { 404: 'Invalid passkey', 503: 'YouTube is not configured on this server, or the database is unavailable' },
    tag: 'Guests',
    summary: "Start connecting a guest's YouTube channel to the passkey's owner",
  },
  {
    method: 'GET',
    path: '/twitch/auth-url',
    procedure: 'twitch.authUrl',
    auth: true,
    errors: { 503: 'Twitch is not configured on this server (TWITCH_CLIENT_ID and TWITCH_CLIENT_SECRET), or the database is unavailable' },
    tag: 'Twitch',
    summary: "Twitch's authorization URL for connecting your own Twitch account (scopes clips:edit editor:manage:clips channel:manage:clips) with a single-use state bound to you (10 minutes)",
  },
  {
    method: 'GET',
    path: '/twitch/connection',
    procedure: 'twitch.connection',
    auth: true,
    tag: 'Twitch',
    summary: "Your connected Twitch account: {connected, login, scopes, status}; status 'reconnect' once Twitch refused it (Reconnect needed)",
  },
  {
    method: 'DELETE',
    path: '/twitch/connection',
    procedure: 'twitch.disconnect',
    auth: true,
    tag: 'Twitch',
    summary: 'Disconnect your Twitch account: forgotten here and its tokens revoked at Twitch (best effort); answers 200 when none was connected too',
  },
  { method: 'GET', path: '/accounts', procedure: 'accounts.list', auth: true, tag: 'Accounts', summary: 'Your accounts of every platform (TikTok, YouTube, Instagram, Facebook Pages) with their linked streamers and status' },
  {
    method: 'GET',
    path: '/accounts/platforms',
    procedure: 'accounts.platforms',
    auth: true,
    tag: 'Accounts',
    summary: 'Which platforms accounts can be connected from on this server, with the variables to set for those that are not configured',
  },
  {
    method: 'GET',
    path: '/accounts/{platform}/auth-url',
    procedure: 'accounts.authUrl',
    auth: true,
    errors: { 400: 'Unknown platform', 503: 'That platform is not configured on this server (the message names the variables), or the database is unavailable' },
    tag: 'Accounts',
    summary: "The platform's authorization URL (tiktok, youtube, instagram, facebook) with a single-use state bound to you and to the platform (10 minutes)",
  },
  {
    method: 'POST',
    path: '/guest/{platform}/auth-url',
    procedure: 'accounts.guestAuthUrl',
    auth: false,
    throttled: true,
    errors: { 400: 'Unknown platform', 404: 'Invalid passkey', 503: 'That platform is not configured on this server, or the database is unavailable' },
    tag: 'Guests',
    summary: "Start connecting a guest's account of any platform to the passkey's owner",
  },
  {
    method: 'DELETE',
    path: '/accounts/{id}',
    procedure: 'accounts.delete',
    auth: true,
    errors: { 404: 'No such account' },
    tag: 'Accounts',
    summary: "Remove an account of any platform (its grant is revoked at the platform, best effort); its posts stay in the clips' history",
  },
  {
    method: 'GET',
    path: '/accounts/{id}/stats',
    procedure: 'accounts.stats',
    auth: true,
    errors: { 404: 'No such account' },
    tag: 'Accounts',
    summary:
      "An account's post statistics: totals of its published posts' latest counts, its views per UTC day over the last `days` days (default 30, at most 90) and its 5 most-viewed posts",
  },
  { method: 'GET', path: '/tiktok/accounts', procedure: 'tiktok.accounts', auth: true, tag: 'TikTok', summary: 'Your TikTok accounts with their linked streamers' },
  {
    method: 'DELETE',
    path: '/tiktok/accounts/{id}',
    procedure: 'tiktok.deleteAccount',
    auth: true,
    errors: { 404: 'No such TikTok account' },
    tag: 'TikTok',
    summary: 'Remove a TikTok account (its token is revoked at TikTok, best effort)',
  },
  {
    method: 'GET',
    path: '/tiktok/accounts/{id}/linked-streamers',
    procedure: 'posting.linkedStreamers',
    auth: true,
    errors: { 404: 'No such account' },
    tag: 'TikTok',
    summary: 'Streamers linked to an account of any platform (the id may be any platform\'s)',
  },
  {
    method: 'POST',
    path: '/streamers/{name}/link-tiktok',
    procedure: 'posting.link',
    auth: true,
    errors: { 404: 'No such streamer or account' },
    tag: 'Streamers',
    summary: "Link an account of any platform to a streamer (tiktok_account_id takes any platform's account id)",
  },
  {
    method: 'POST',
    path: '/streamers/{name}/unlink-tiktok',
    procedure: 'posting.unlink',
    auth: true,
    errors: { 404: 'No such streamer or account' },
    tag: 'Streamers',
    summary: 'Unlink an account of any platform from a streamer',
  },
  {
    method: 'POST',
    path: '/guest/tiktok/auth-url',
    procedure: 'tiktok.guestAuthUrl',
    auth: false,
    throttled: true,
    errors: { 404: 'Invalid passkey', 503: 'TikTok is not configured on this server, or the database is unavailable' },
    tag: 'Guests',
    summary: "Start connecting a guest's TikTok account to the passkey's owner",
  },

  { method: 'GET', path: '/accounts/{id}/schedule', procedure: 'queue.schedule', auth: true, errors: { 404: 'No such account' }, tag: 'Queue', summary: "An account's posting slots, daily cap and minimum gap (defaults, with updated_at null, until saved)" },
  {
    method: 'PUT',
    path: '/accounts/{id}/schedule',
    procedure: 'queue.saveSchedule',
    auth: true,
    errors: { 400: 'Unknown time zone, a bad day or time, a daily cap or gap out of range', 404: 'No such account' },
    tag: 'Queue',
    summary: "Save an account's posting slots: new automatic posts take the next free slot in its time zone (none: they post at once)",
  },
  { method: 'GET', path: '/queue', procedure: 'queue.list', auth: true, tag: 'Queue', summary: 'Posts not yet finished, soonest first' },
  {
    method: 'DELETE',
    path: '/queue/{id}',
    procedure: 'queue.cancel',
    auth: true,
    errors: { 404: 'No such post', 409: 'The post is already being sent to its platform, or has finished' },
    tag: 'Queue',
    summary: 'Cancel a post waiting in the queue',
  },
  {
    method: 'POST',
    path: '/queue/{id}/post-now',
    procedure: 'queue.postNow',
    status: 202,
    auth: true,
    errors: { 404: 'No such post', 409: 'The post is already being sent to its platform, or has finished' },
    tag: 'Queue',
    summary: 'Post a scheduled post now instead of at its slot',
  },

  { method: 'GET', path: '/settings/processing', procedure: 'settings.processing', auth: true, tag: 'Settings', summary: 'Your processing preferences (speech model, clips at once); until saved, updated_at null and the model the server runs by default; transcription says where speech recognition runs (TRANSCRIBE_ENGINE) and its default model' },
  { method: 'PUT', path: '/settings/processing', procedure: 'settings.saveProcessing', auth: true, tag: 'Settings', summary: 'Save your processing preferences; scheduled and automatic work uses them' },

  { method: 'GET', path: '/webhooks', procedure: 'webhooks.list', auth: true, tag: 'Notifications', summary: 'Your webhooks, oldest first, with the latest delivery\'s answer (secrets are never shown)' },
  {
    method: 'POST',
    path: '/webhooks',
    procedure: 'webhooks.create',
    status: 201,
    auth: true,
    errors: { 400: 'Bad URL, kind or events; a private or loopback receiver (unless WEBHOOK_ALLOW_PRIVATE=true); a secret for a non-json webhook; more than 20 webhooks' },
    tag: 'Notifications',
    summary: 'Add a webhook; a json webhook without a secret gets a generated one, shown in this answer only',
  },
  { method: 'DELETE', path: '/webhooks/{id}', procedure: 'webhooks.delete', auth: true, errors: { 404: 'No such webhook' }, tag: 'Notifications', summary: 'Delete a webhook' },
  {
    method: 'POST',
    path: '/webhooks/{id}/test',
    procedure: 'webhooks.test',
    auth: true,
    errors: { 400: 'The receiver is on a private or loopback address', 404: 'No such webhook', 502: 'The receiver could not be reached or did not answer within 10 s' },
    tag: 'Notifications',
    summary: "Send a test event now and answer the receiver's HTTP status",
  },

  { method: 'GET', path: '/moments', procedure: 'moments.list', auth: true, tag: 'Moments', summary: "Moments found in watched streamers' live chat, newest first: score 0..1, reasons, status and the clip made of each" },

  { method: 'GET', path: '/review', procedure: 'review.list', auth: true, tag: 'Review', summary: 'Clips waiting for review, the longest waiting first' },
  {
    method: 'POST',
    path: '/review/approve',
    procedure: 'review.approveMany',
    auth: true,
    errors: { 400: 'clip_ids is missing, empty or too long' },
    tag: 'Review',
    summary: "Approve several clips (best-ranked suggestion, the streamer's linked accounts); clips that cannot be approved are listed in failed and do not stop the others",
  },
  {
    method: 'POST',
    path: '/review/{clip_id}/approve',
    procedure: 'review.approve',
    auth: true,
    errors: {
      400: 'No account to post to, or an account whose privacy was never chosen (PUT /review/accounts/{id})',
      404: 'No such clip or account',
      409: 'The clip is not waiting for review',
    },
    tag: 'Review',
    summary: "Approve a clip: its posts are queued to the accounts given (else the streamer's linked ones) with the best-ranked suggestion unless a description is given",
  },
  {
    method: 'POST',
    path: '/review/{clip_id}/reject',
    procedure: 'review.reject',
    auth: true,
    errors: { 404: 'No such clip', 409: 'The clip is not waiting for review' },
    tag: 'Review',
    summary: 'Reject a clip: it stays in the library and is never posted automatically',
  },
  {
    method: 'POST',
    path: '/review/{clip_id}/share',
    procedure: 'review.share',
    status: 201,
    auth: true,
    errors: {
      400: "No account to post to (none given and none linked to the clip's streamer), or bad choices (as for approve)",
      404: 'No such clip or account',
      409: 'The clip is not waiting for review',
    },
    tag: 'Review',
    summary:
      "Make an approval link for someone without an account (the streamer): {url, expires_at}, the link's page approves or rejects the clip once within 7 days; the url holds a secret token shown this once (stored hashed). The body takes approve's choices, which the page shows and an approval posts. A new link replaces the clip's unanswered ones",
  },
  { method: 'GET', path: '/review/links', procedure: 'review.links', auth: true, tag: 'Review', summary: 'The latest approval link of each clip shared in the last 14 days, newest first: open, approved, rejected or expired' },
  {
    method: 'GET',
    path: '/approval/{token}',
    procedure: 'review.linkPage',
    auth: false,
    throttled: true,
    errors: {
      404: 'Not an approval link (changed, cut short, or unknown), or its clip was deleted',
      409: 'The link was replaced by a newer one or has expired, or the clip was reviewed by its owner since',
    },
    tag: 'Approval links',
    summary:
      "An approval link's page, no session needed: the clip's title, streamer, description and accounts while the link is open (with its video_url and thumbnail_url), or the answer given through it (status approved or rejected, no video). Failed look-ups count against the client's address (429)",
  },
  {
    method: 'POST',
    path: '/approval/{token}/approve',
    procedure: 'review.approveByLink',
    auth: false,
    throttled: true,
    errors: {
      400: 'The approval would be refused as in the inbox (an account whose privacy was never chosen): the link stays open and the owner is told in the logs',
      404: 'Not an approval link, or an account it posts to was removed',
      409: 'The link was already used, replaced or has expired, or the clip was reviewed by its owner since',
    },
    tag: 'Approval links',
    summary: "Approve the clip through its link, once: its posts are queued exactly as the owner's approval would (the choices made when sharing), logged in the owner's logs as 'Approved by link'",
  },
  {
    method: 'POST',
    path: '/approval/{token}/reject',
    procedure: 'review.rejectByLink',
    auth: false,
    throttled: true,
    errors: {
      400: 'A note over 500 characters',
      404: 'Not an approval link',
      409: 'The link was already used, replaced or has expired, or the clip was reviewed by its owner since',
    },
    tag: 'Approval links',
    summary: "Reject the clip through its link, once, with an optional note: it stays in the owner's library and is not posted, logged in the owner's logs as 'Rejected by link'",
  },
  { method: 'GET', path: '/review/accounts', procedure: 'review.accountSettings', auth: true, tag: 'Review', summary: 'Your accounts with the privacy and interactions chosen for approved and automatic posts (privacy_level null: not chosen yet)' },
  {
    method: 'PUT',
    path: '/review/accounts/{id}',
    procedure: 'review.saveAccountSettings',
    auth: true,
    errors: { 404: 'No such account' },
    tag: 'Review',
    summary: 'Choose who can see approved and automatic posts on an account, and their interactions',
  },

  {
    method: 'POST',
    path: '/tokens',
    procedure: 'tokens.create',
    status: 201,
    auth: true,
    errors: { 400: 'A bad name, scopes or expires_in_days; the admin scope for a non-administrator; more than 50 tokens' },
    tag: 'API tokens',
    summary: 'Make an API token for scripts and AI assistants (signed-in session only): its value, prefixed cs_, is in this answer only (only its hash is kept)',
  },
  { method: 'GET', path: '/tokens', procedure: 'tokens.list', auth: true, tag: 'API tokens', summary: 'Your API tokens, newest first, without their values (signed-in session only)' },
  {
    method: 'DELETE',
    path: '/tokens/{id}',
    procedure: 'tokens.delete',
    auth: true,
    errors: { 404: 'No such token of yours' },
    tag: 'API tokens',
    summary: 'Revoke an API token: its next request answers 401 (signed-in session only)',
  },

  { method: 'GET', path: '/logs', procedure: 'logs.list', auth: true, tag: 'Logs', summary: 'System log entries, newest first' },
  {
    method: 'GET',
    path: '/health',
    procedure: 'health.check',
    auth: false,
    errors: {
      503: {
        description: 'The database is unreachable',
        body: z.object({ status: z.literal('error'), database: z.literal('error'), worker: z.enum(['ok', 'disabled']) }),
      },
    },
    tag: 'Health',
    summary: 'Database and worker health',
  },
];

/** An OpenAPI parameter of a route that is not a procedure (query or header). */
interface DirectParameter {
  name: string;
  in: 'query' | 'header';
  description: string;
  schema: Record<string, unknown>;
}

/** A success answer of a route that is not a procedure: its content types, or none (304). */
interface DirectAnswer {
  description: string;
  content: readonly string[];
  /** Response headers worth naming. */
  headers?: Record<string, string>;
}

/**
 * Routes served by handlers of their own rather than a JSON procedure: clip files, the studio's
 * images, the OAuth popup page and the API's own documentation. The statuses every route answers (400 for an undecodable URL,
 * 401 where a session is needed, 503 during a database outage) are added as for REST_ROUTES.
 */
export interface DirectRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  operationId: string;
  auth: boolean;
  tag: string;
  summary: string;
  parameters: readonly DirectParameter[];
  /** The JSON body a POST reads: its procedure's input schema (path parameters are left out of the document). */
  body?: z.ZodType;
  /** A body that is no JSON (an image): its content types and what it must be. */
  rawBody?: { content: readonly string[]; description: string };
  answers: Partial<Record<200 | 202 | 206 | 304, DirectAnswer>>;
  errors?: Partial<Record<ErrorStatus, ErrorMeaning>>;
  /** Error statuses answered with a page of this content type; `json`: the JSON error body may also come with that status. */
  errorPages?: Partial<Record<ErrorStatus, { content: string; json: boolean }>>;
  /** Whether the route reads the database (and so answers 503 while it is unreachable); true unless said. */
  database?: boolean;
}

const CONDITIONAL_HEADERS: DirectParameter[] = [
  { name: 'Range', in: 'header', description: 'One byte range, e.g. bytes=0-1023 (other units are ignored)', schema: { type: 'string' } },
  { name: 'If-Range', in: 'header', description: 'Serve the range only while the file is unchanged (ETag or date)', schema: { type: 'string' } },
  { name: 'If-None-Match', in: 'header', description: 'ETag of the copy the client holds: 304 while unchanged', schema: { type: 'string' } },
  { name: 'If-Modified-Since', in: 'header', description: 'Date of the copy the client holds: 304 while unchanged', schema: { type: 'string' } },
  { name: 'If-Match', in: 'header', description: 'Serve only while the file still has this ETag (412 otherwise)', schema: { type: 'string' } },
  { name: 'If-Unmodified-Since', in: 'header', description: 'Serve only while the file is unchanged since this date (412 otherwise)', schema: { type: 'string' } },
];

/** How a stored file answers, whichever route serves it: whole, one range, or unchanged. */
function fileAnswers(contentType: string, headers: Record<string, string> = {}): DirectRoute['answers'] {
  return {
    200: { description: 'The file', content: [contentType], headers: { 'Accept-Ranges': 'bytes', ETag: 'The file version', 'Last-Modified': 'When the file was written', ...headers } },
    206: { description: 'The requested byte range', content: [contentType], headers: { 'Content-Range': 'bytes FIRST-LAST/SIZE' } },
    304: { description: 'Unchanged since the copy the client holds', content: [] },
  };
}

const FILE_ERRORS = {
  412: 'The file has changed since the version named in If-Match or If-Unmodified-Since',
  416: 'No part of the file satisfies the Range (Content-Range: bytes */SIZE)',
} as const;

function clipFileRoute(file: 'video' | 'thumbnail', contentType: string, summary: string, extra: DirectParameter[] = []): DirectRoute {
  return {
    method: 'GET',
    path: `/clips/{id}/${file}`,
    operationId: `clips.${file}`,
    auth: true,
    tag: 'Clips',
    summary,
    parameters: [...extra, ...CONDITIONAL_HEADERS],
    answers: fileAnswers(contentType),
    errors: { 404: 'No such clip, or its file is missing', ...FILE_ERRORS },
  };
}

/** A media link (docs/decisions/0035-public-media-urls.md): what a platform fetches a clip's video from. */
const MEDIA_LINK_ROUTE: DirectRoute = {
  method: 'GET',
  path: '/media/{token}',
  operationId: 'media.video',
  auth: false,
  tag: 'Media',
  summary:
    "A clip's video for a platform that fetches it by URL (Instagram's video_url) with local storage: no cookie, the signed token alone names one version of one clip's video, for 2 hours from when the post made it. HEAD and Range as for /clips/{id}/video; PUBLIC_URL must be reachable by the platform",
  parameters: CONDITIONAL_HEADERS,
  answers: fileAnswers('video/mp4', { 'Cache-Control': 'private, max-age=300' }),
  errors: {
    404: 'Not found or expired: a token that was changed, cut short or is past its 2 hours; the clip deleted, or its video replaced (rendered again) or removed by retention',
    ...FILE_ERRORS,
  },
};

/** An open approval link's video or picture: what its page shows, to whoever holds the link. */
function approvalLinkFileRoute(file: 'video' | 'thumbnail', contentType: string): DirectRoute {
  return {
    method: 'GET',
    path: `/approval/{token}/${file}`,
    operationId: `approval.${file}`,
    auth: false,
    tag: 'Approval links',
    summary: `The clip's ${file === 'video' ? 'rendered MP4' : 'thumbnail'} while its approval link is open (unanswered, not replaced, not expired, the clip still waiting for review): no cookie, the link's token alone. HEAD and Range as for /clips/{id}/video; failed look-ups count against the client's address`,
    parameters: CONDITIONAL_HEADERS,
    answers: fileAnswers(contentType),
    errors: { 404: 'Not an open approval link, or its clip has no such file (any of these answer the same)', 429: 'Too many failed look-ups from this address: try again after Retry-After seconds', ...FILE_ERRORS },
  };
}

const IMAGES_BUSY_MEANING = 'Too many previews are being made at once on this server: try again after Retry-After seconds';

/** The OAuth redirect of a Meta platform (Instagram, Facebook): the same page as TikTok's and YouTube's. */
function metaCallbackRoute(platform: 'instagram' | 'facebook', label: string): DirectRoute {
  return {
    method: 'GET',
    path: `/${platform}/callback`,
    operationId: `${platform}.callback`,
    auth: false,
    tag: 'Accounts',
    summary: `${label}'s OAuth redirect: a page that tells the opener {type:'${platform}-auth', success, error?} and closes`,
    parameters: [
      { name: 'code', in: 'query', description: `${label}'s authorization code`, schema: { type: 'string' } },
      { name: 'state', in: 'query', description: 'The state of the authorization URL (single use, 10 minutes)', schema: { type: 'string' } },
      { name: 'error', in: 'query', description: `Why ${label} did not authorize (access_denied)`, schema: { type: 'string' } },
      { name: 'error_reason', in: 'query', description: `${label}'s reason code`, schema: { type: 'string' } },
      { name: 'error_description', in: 'query', description: `${label}'s words for it`, schema: { type: 'string' } },
    ],
    answers: { 200: { description: 'The account is connected (a Facebook login: each Page chosen); the page tells the opener so', content: ['text/html'] } },
    errors: {
      400: `The connection failed (unknown, reused, expired or another platform's state, refused by the user or by ${label}, a permission not granted): the page tells the opener why; a URL that cannot be decoded gets the JSON error body`,
      503: 'The database is unavailable: the page says to try again',
    },
    errorPages: { 400: { content: 'text/html', json: true }, 503: { content: 'text/html', json: false } },
  };
}

const LOGO_ROUTES: readonly DirectRoute[] = [
  {
    method: 'PUT',
    path: '/streamers/{name}/logo',
    operationId: 'streamers.saveLogo',
    auth: true,
    tag: 'Streamers',
    summary: "Upload (or replace) the streamer's logo, drawn where its brand asks for it: the image itself as the body, the one route whose body is not JSON",
    parameters: [],
    rawBody: { content: LOGO_TYPES, description: 'A PNG or JPEG image of at most 2 MB' },
    answers: { 200: { description: '{message}', content: ['application/json'] } },
    errors: { 400: 'An empty body, or bytes that are not the image the Content-Type names', 404: 'No such streamer', 413: 'More than 2 MB', 415: 'A Content-Type other than image/png or image/jpeg' },
  },
  {
    method: 'GET',
    path: '/streamers/{name}/logo',
    operationId: 'streamers.logo',
    auth: true,
    tag: 'Streamers',
    summary: "The streamer's logo as uploaded",
    parameters: [],
    answers: { 200: { description: 'The logo', content: LOGO_TYPES, headers: { 'Cache-Control': 'private, no-cache' } } },
    errors: { 404: 'No such streamer, or it has no logo' },
  },
  {
    method: 'DELETE',
    path: '/streamers/{name}/logo',
    operationId: 'streamers.deleteLogo',
    auth: true,
    tag: 'Streamers',
    summary: "Delete the streamer's logo (renders then draw none)",
    parameters: [],
    answers: { 200: { description: '{message}', content: ['application/json'] } },
    errors: { 404: 'No such streamer, or it has no logo' },
  },
];

/** A JSON-RPC 2.0 message of the Model Context Protocol, as POST /mcp reads it. */
const mcpMessage = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number().int()]).optional(),
  method: z.string().optional().describe('initialize, tools/list, tools/call, notifications/initialized…'),
  params: z.record(z.string(), z.unknown()).optional(),
});

/** The MCP endpoint's other methods: a stateless server answers them 405 (the protocol's word for "not offered"). */
function mcpNotAllowed(method: 'GET' | 'DELETE', operationId: 'mcp.stream' | 'mcp.session', summary: string): DirectRoute {
  return { method, path: '/mcp', operationId, auth: false, tag: 'API tokens', summary, parameters: [], answers: {}, errors: { 405: 'Allow: POST' }, database: false };
}

export const DIRECT_ROUTES: readonly DirectRoute[] = [
  ...LOGO_ROUTES,
  clipFileRoute('video', 'video/mp4', 'The rendered MP4 with HTTP Range support; ?download=1 names it {clip_id}.mp4', [
    { name: 'download', in: 'query', description: '1: answer as an attachment named {clip_id}.mp4; other values are ignored', schema: { type: 'string' } },
  ]),
  clipFileRoute('thumbnail', 'image/jpeg', 'The clip thumbnail (Range supported as for the video)'),
  MEDIA_LINK_ROUTE,
  approvalLinkFileRoute('video', 'video/mp4'),
  approvalLinkFileRoute('thumbnail', 'image/jpeg'),
  {
    method: 'GET',
    path: '/clips/{id}/frame',
    operationId: 'studio.frame',
    auth: true,
    tag: 'Studio',
    summary: "The untouched source frame at t, at the source's size (for drawing regions)",
    parameters: [
      {
        name: 't',
        in: 'query',
        description: "Seconds from the source's start (digits, optionally with a decimal point); clamped into the clip; 0 when absent",
        schema: { type: 'string', pattern: QUERY_NUMBER_PATTERN },
      },
    ],
    answers: { 200: { description: 'The frame', content: ['image/jpeg'], headers: { 'Cache-Control': 'private, no-store' } } },
    errors: { 400: 't is not a number of seconds', 404: 'No such clip, or its source video is missing', 429: IMAGES_BUSY_MEANING },
  },
  {
    method: 'POST',
    path: '/clips/{id}/preview',
    operationId: 'studio.preview',
    auth: true,
    tag: 'Studio',
    summary:
      "The frame at t exactly as a render with these settings (the saved ones where not given, null = the streamer's) would show it, captions included: 1080x1920, or the source's size for a horizontal clip",
    parameters: [],
    body: previewClipInput,
    answers: { 200: { description: 'The preview', content: ['image/jpeg'], headers: { 'Cache-Control': 'private, no-store' } } },
    errors: {
      400: 'Settings a render would refuse (as PUT /clips/{id}/edit), or a bad t',
      404: 'No such clip, or its source video is missing',
      429: IMAGES_BUSY_MEANING,
    },
  },
  {
    method: 'GET',
    path: '/tiktok/callback',
    operationId: 'tiktok.callback',
    auth: false,
    tag: 'TikTok',
    summary: "TikTok's OAuth redirect: a page that tells the opener {type:'tiktok-auth', success, error?} and closes",
    parameters: [
      { name: 'code', in: 'query', description: "TikTok's authorization code", schema: { type: 'string' } },
      { name: 'state', in: 'query', description: 'The state of the authorization URL (single use, 10 minutes)', schema: { type: 'string' } },
      { name: 'error', in: 'query', description: 'Why TikTok did not authorize', schema: { type: 'string' } },
      { name: 'error_description', in: 'query', description: "TikTok's words for it", schema: { type: 'string' } },
    ],
    answers: { 200: { description: 'The account is connected; the page tells the opener so', content: ['text/html'] } },
    errors: {
      400: 'The connection failed (unknown, reused or expired state, refused by the user or by TikTok): the page tells the opener why; a URL that cannot be decoded gets the JSON error body',
      503: 'The database is unavailable: the page says to try again',
    },
    errorPages: { 400: { content: 'text/html', json: true }, 503: { content: 'text/html', json: false } },
  },
  {
    method: 'GET',
    path: '/youtube/callback',
    operationId: 'youtube.callback',
    auth: false,
    tag: 'YouTube',
    summary: "Google's OAuth redirect: a page that tells the opener {type:'youtube-auth', success, error?} and closes",
    parameters: [
      { name: 'code', in: 'query', description: "Google's authorization code", schema: { type: 'string' } },
      { name: 'state', in: 'query', description: 'The state of the authorization URL (single use, 10 minutes)', schema: { type: 'string' } },
      { name: 'error', in: 'query', description: 'Why Google did not authorize (access_denied)', schema: { type: 'string' } },
      { name: 'scope', in: 'query', description: 'The scopes granted', schema: { type: 'string' } },
    ],
    answers: { 200: { description: 'The account is connected; the page tells the opener so', content: ['text/html'] } },
    errors: {
      400: 'The connection failed (unknown, reused, expired or another platform’s state, refused by the user or by Google, a permission unticked, no channel): the page tells the opener why; a URL that cannot be decoded gets the JSON error body',
      503: 'The database is unavailable: the page says to try again',
    },
    errorPages: { 400: { content: 'text/html', json: true }, 503: { content: 'text/html', json: false } },
  },
  {
    method: 'GET',
    path: '/twitch/callback',
    operationId: 'twitch.callback',
    auth: false,
    tag: 'Twitch',
    summary: "Twitch's OAuth redirect after connecting your own Twitch account: a page that tells the opener {type:'twitch-auth', success, error?} and closes",
    parameters: [
      { name: 'code', in: 'query', description: "Twitch's authorization code", schema: { type: 'string' } },
      { name: 'state', in: 'query', description: 'The state of the authorization URL (single use, 10 minutes)', schema: { type: 'string' } },
      { name: 'scope', in: 'query', description: 'The scopes granted', schema: { type: 'string' } },
      { name: 'error', in: 'query', description: 'Why Twitch did not authorize (access_denied)', schema: { type: 'string' } },
      { name: 'error_description', in: 'query', description: "Twitch's words for it", schema: { type: 'string' } },
    ],
    answers: { 200: { description: 'The account is connected; the page tells the opener so', content: ['text/html'] } },
    errors: {
      400: 'The connection failed (unknown, reused or expired state, refused by the user or by Twitch): the page tells the opener why; a URL that cannot be decoded gets the JSON error body',
      503: 'The database is unavailable: the page says to try again',
    },
    errorPages: { 400: { content: 'text/html', json: true }, 503: { content: 'text/html', json: false } },
  },
  metaCallbackRoute('instagram', 'Instagram'),
  metaCallbackRoute('facebook', 'Facebook'),
  {
    method: 'POST',
    path: '/mcp',
    operationId: 'mcp.endpoint',
    auth: true,
    tag: 'API tokens',
    summary:
      "The Model Context Protocol over Streamable HTTP (protocol 2025-06-18 and later; stateless: no session id, JSON answers, no GET stream) for AI assistants, with an API token only (a session cookie is not taken). Tools: list_streamers, start_download, download_status, list_clips, get_clip, list_moments, list_review, approve_clip, reject_clip, render_clip, post_clip, list_queue, account_stats; each calls its REST route's procedure within the token's scopes (beyond them: a tool result with isError and 'This token lacks the {scope} scope'). Malformed JSON-RPC or a missing Accept: application/json, text/event-stream are answered by the protocol's JSON-RPC error bodies (400, 406)",
    parameters: [],
    answers: {
      200: { description: 'The JSON-RPC response', content: ['application/json'] },
      202: { description: 'A notification or response was accepted (no body)', content: [] },
    },
    errors: { 401: 'No API token, or one that is unknown, revoked or expired (WWW-Authenticate: Bearer realm="clipshift")' },
    body: mcpMessage,
  },
  mcpNotAllowed('GET', 'mcp.stream', 'No event stream to open: this MCP server is stateless and answers each POST with JSON'),
  mcpNotAllowed('DELETE', 'mcp.session', 'No session to end: this MCP server is stateless'),
  {
    method: 'GET',
    path: '/openapi.json',
    operationId: 'docs.openapi',
    auth: false,
    tag: 'Documentation',
    summary: 'This OpenAPI 3.1 document',
    database: false,
    parameters: [],
    answers: { 200: { description: 'The document', content: ['application/json'] } },
  },
  {
    method: 'GET',
    path: '/docs',
    operationId: 'docs.page',
    auth: false,
    tag: 'Documentation',
    summary: 'This document rendered for people',
    database: false,
    parameters: [],
    answers: { 200: { description: 'The page', content: ['text/html'] } },
  },
];

/** "/streamers/{name}" → "/streamers/:name" for Express. */
export function toExpressPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}
