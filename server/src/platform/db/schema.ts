import type { ColumnType, Generated } from 'kysely';
import type { AccountPlatform, ApproveClipRequest, PostingSlot, TokenScope } from '@clipshift/shared';
import type { Brand, ClipMoment, Detection, MomentStatus, Hook, StoredCaptionStyle, StoredClipEdit, ClipPeriod, Layout, PublishMode, RankBy, Rect, RunStatus, SkipCounts, SubtitleRequestStatus, TranscriptWordDto, UploadStatus, WebhookEvent, WebhookKind } from '@clipshift/shared';

/** A clip's jobs: subtitle generation, or a re-render with its saved settings. */
export type RenderJobKind = 'subtitles' | 'render';

// The statuses are the shared enums the API reports.
export type { RunStatus, SubtitleRequestStatus, UploadStatus };

/** Timestamps come back from pg as Date; inserts may pass Date or ISO strings. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

interface UsersTable {
  id: Generated<string>;
  username: string;
  password_hash: string;
  is_admin: Generated<boolean>;
  passkey: string | null;
  created_at: CreatedAt;
}

interface SessionsTable {
  id: string;
  secret_hash: Buffer;
  user_id: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

export interface InviteCodesTable {
  id: Generated<string>;
  code: string;
  created_by: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_by_user_id: string | null;
  used_at: Timestamp | null;
}

interface LogsTable {
  /** bigint identity: pg returns it as a string. */
  id: ColumnType<string, never, never>;
  timestamp: ColumnType<Date, Date | string | undefined, never>;
  level: string;
  logger: string;
  message: string;
  exception: string | null;
  user_id: string | null;
}

interface RateLimitsTable {
  key: string;
  window_started_at: Timestamp;
  hits: number;
}

/** Sign-in failures and lockouts per account (key: HMAC of the lowercased username). */
interface LoginAccountLocksTable {
  account_key: string;
  failures: ColumnType<number, number | undefined, number>;
  window_started_at: ColumnType<Date, Date | string | undefined, Date | string>;
  locked_until: Timestamp | null;
  lockouts: ColumnType<number, number | undefined, number>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** The Processing preferences a user saved in Settings. */
export interface UserSettingsTable {
  user_id: string;
  whisper_model: string;
  concurrency: number;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface StreamersTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  display_name: string | null;
  twitch_user_id: string | null;
  clip_limit: number;
  vertical: boolean;
  language: string;
  layout: ColumnType<Layout, Layout | undefined, Layout>;
  crop_focus: ColumnType<number, number | undefined, number>;
  /** JSON {x, y, w, h}; null = no facecam. */
  facecam: ColumnType<Rect | null, string | null | undefined, string | null>;
  gameplay: ColumnType<Rect, string | undefined, string>;
  split_ratio: ColumnType<number, number | undefined, number>;
  /** Null = the classic preset. */
  caption_style: ColumnType<StoredCaptionStyle | null, string | null | undefined, string | null>;
  glossary: ColumnType<string[], string | undefined, string>;
  normalize_audio: ColumnType<boolean, boolean | undefined, boolean>;
  /** JSON {text, seconds}; null = no title card. */
  hook: ColumnType<Hook | null, string | null | undefined, string | null>;
  /** JSON {logo, position, opacity, outro_seconds}; null = no brand. */
  brand: ColumnType<Brand | null, string | null | undefined, string | null>;
  /** The uploaded logo's storage key, type and size; null = none. */
  logo_key: string | null;
  logo_type: 'image/png' | 'image/jpeg' | null;
  logo_bytes: number | null;
  clip_period: ColumnType<ClipPeriod, ClipPeriod | undefined, ClipPeriod>;
  min_views: ColumnType<number, number | undefined, number>;
  rank_by: ColumnType<RankBy, RankBy | undefined, RankBy>;
  /** JSON array of lower-cased Twitch logins; empty = anyone's clips. */
  clip_creators: ColumnType<string[], string | undefined, string>;
  publish_mode: ColumnType<PublishMode, PublishMode | undefined, PublishMode>;
  /** Only Twitch's featured clips (migration 031). */
  featured_only: ColumnType<boolean, boolean | undefined, boolean>;
  watch_live: ColumnType<boolean, boolean | undefined, boolean>;
  moment_threshold: ColumnType<number, number | undefined, number>;
  schedule_interval: number | null;
  schedule_unit: 'minutes' | 'hours' | 'days' | null;
  auto_subtitle: boolean;
  auto_publish: boolean;
  next_run_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** What the progress column holds: the clips in flight. */
export interface RunProgressItem {
  clip_id: string;
  title: string;
  stage: 'queued' | 'downloading' | 'probing' | 'transcribing' | 'waiting_to_render' | 'rendering' | 'thumbnail' | 'saving';
  percent: number;
}

export interface DownloadRunsTable {
  id: Generated<string>;
  user_id: string;
  streamer_id: string;
  status: ColumnType<RunStatus, RunStatus | undefined, RunStatus>;
  trigger: ColumnType<RunTrigger, RunTrigger | undefined, never>;
  clip_limit: number;
  vertical: boolean;
  concurrency: ColumnType<number, number | undefined, number>;
  clips_total: ColumnType<number, number | undefined, number>;
  clips_downloaded: ColumnType<number, number | undefined, number>;
  clips_failed: ColumnType<number, number | undefined, number>;
  progress: ColumnType<RunProgressItem[], string | undefined, string>;
  /** JSON: how many listed clips each selection rule turned away; null until the listing. */
  skipped: ColumnType<SkipCounts | null, string | null | undefined, string | null>;
  error: string | null;
  started_at: CreatedAt;
  completed_at: Timestamp | null;
  owner_host: string | null;
  owner_pid: number | null;
  owner_instance: string | null;
  heartbeat_at: Timestamp | null;
  /** JSON: the Twitch clips a moment made (trigger 'moment'); null = the streamer's best, by its rules. */
  clip_ids: ColumnType<string[] | null, string | null | undefined, never>;
  /** JSON {score, reasons}: what the clips of a moment run carry into the library. */
  moment: ColumnType<ClipMoment | null, string | null | undefined, never>;
}

export type RunTrigger = 'manual' | 'schedule' | 'moment';

export interface DescriptionOption {
  description: string;
  rank: number;
}

export interface ClipsTable {
  id: Generated<string>;
  user_id: string;
  streamer_id: string | null;
  streamer_name: string;
  clip_id: string;
  title: string;
  broadcaster_id: string | null;
  broadcaster_name: string;
  creator_name: string | null;
  game_id: string | null;
  game_name: string | null;
  language: string | null;
  view_count: number;
  duration: number;
  twitch_created_at: Timestamp;
  thumbnail_url: string | null;
  url: string | null;
  format_type: 'vertical' | 'horizontal';
  layout: string | null;
  subtitled: ColumnType<boolean, boolean | undefined, boolean>;
  width: number | null;
  height: number | null;
  /** bigint: pg returns it as a string. */
  size_bytes: ColumnType<string | null, number | null | undefined, number | null>;
  files_dir: string;
  /** bigint: source + thumbnail bytes (migration 016); null for clips saved before it. */
  aux_bytes: ColumnType<string | null, number | null | undefined, number | null>;
  /** Retention deleted the source and video at this time; the row and thumbnail stay. */
  media_expired_at: Timestamp | null;
  custom_description: string | null;
  selected_description: ColumnType<number, number | undefined, number>;
  descriptions: ColumnType<DescriptionOption[], string | undefined, string>;
  /** The generator's title-card line for the first seconds (migration 027); null for clips described before. */
  hook_suggestion: ColumnType<string | null, string | null | undefined, string | null>;
  transcript: string | null;
  /** What camera detection found when the clip was last rendered with the auto layout; null = not run. */
  detected: ColumnType<Detection | null, string | null | undefined, string | null>;
  /** JSON {score, reasons} of the moment the clip was made of; null = a viewer's clip. */
  moment: ColumnType<ClipMoment | null, string | null | undefined, string | null>;
  /** The clip's own studio settings: keys of ClipEdit, absent = the streamer's. */
  edit: ColumnType<StoredClipEdit, string | undefined, string>;
  /** Timed words, seconds from the source's start; null until transcribed. */
  transcript_words: ColumnType<TranscriptWordDto[] | null, string | null | undefined, string | null>;
  transcript_language: string | null;
  /** The user changed the words: only "transcribe again" replaces them. */
  transcript_edited: ColumnType<boolean, boolean | undefined, boolean>;
  /** The rendered video's length; `duration` is the source's. */
  output_duration: number;
  /** The rendered video's loudness (migration 021): both set or both null (rendered before, or silent). */
  loudness_integrated_lufs: number | null;
  loudness_true_peak_dbtp: number | null;
  run_id: string | null;
  /** null: never reviewed; pending: waiting in the review inbox (see migration 015). */
  review_status: ColumnType<ClipReviewStatus | null, ClipReviewStatus | null | undefined, ClipReviewStatus | null>;
  reviewed_at: Timestamp | null;
  /** The source is the streamer's own portrait version (Get Clips Download), used as it is (migration 031). */
  portrait_source: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export type ClipReviewStatus = 'pending' | 'approved' | 'rejected';

/** The owner's approval choices a link carries (ApproveClipRequest less the clip, its accounts resolved). */
export type StoredApproval = Omit<ApproveClipRequest, 'clip_id' | 'account_ids'> & { account_ids: string[] };

/** A clip shared for approval by someone without an account (migration 030): one answer, within its days. */
export interface ApprovalLinksTable {
  id: Generated<string>;
  user_id: string;
  clip_row_id: string;
  /** SHA-256 of the link's token; the token itself is stored nowhere. */
  token_hash: Buffer;
  approval: ColumnType<StoredApproval, string, never>;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  answer: 'approved' | 'rejected' | null;
  answered_at: Timestamp | null;
  note: string | null;
}

/** The privacy and interaction choices a user made once for an account's unattended posts. */
export interface AccountPostSettingsTable {
  account_id: string;
  privacy_level: string;
  disable_comment: ColumnType<boolean, boolean | undefined, boolean>;
  disable_duet: ColumnType<boolean, boolean | undefined, boolean>;
  disable_stitch: ColumnType<boolean, boolean | undefined, boolean>;
  youtube_notify_subscribers: ColumnType<boolean, boolean | undefined, boolean>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** What a Google project (YOUTUBE_CLIENT_ID) spent of its YouTube quota on one Pacific day. */
export interface YouTubeQuotaDaysTable {
  project: string;
  /** The date in Los Angeles, written YYYY-MM-DD (node-postgres reads a date back as a Date). */
  day: ColumnType<Date, string, never>;
  /** videos.insert calls (their own bucket). */
  uploads: ColumnType<number, number | undefined, number>;
  /** Units of every other call. */
  units: ColumnType<number, number | undefined, number>;
}

/** The steps of a subtitle job, in order (shared RENDER_STAGES). */
export type SubtitleStage = 'transcribing' | 'rendering' | 'describing';

export interface SubtitleRequestsTable {
  id: Generated<string>;
  user_id: string;
  clip_row_id: string;
  model: string | null;
  status: ColumnType<SubtitleRequestStatus, SubtitleRequestStatus | undefined, SubtitleRequestStatus>;
  message: string | null;
  owner_host: string | null;
  owner_pid: number | null;
  owner_instance: string | null;
  heartbeat_at: Timestamp | null;
  /** The step the job is in (transcribing, rendering, describing); kept when it fails. */
  stage: SubtitleStage | null;
  /** Subtitle generation, or a re-render of the clip's settings. */
  kind: ColumnType<RenderJobKind, RenderJobKind | undefined, never>;
  /** Transcribe again even when the transcript was edited. */
  retranscribe: ColumnType<boolean, boolean | undefined, never>;
  /** Of the whole job, 0–100. */
  percent: number | null;
  created_at: CreatedAt;
  finished_at: Timestamp | null;
}

export type { AccountPlatform };

/** A published post's counts as last read from its platform (YouTube has no shares: null). */
export interface PostStats {
  views: number;
  likes: number;
  comments: number;
  shares: number | null;
}

/** A connected account of any platform (TikTok, YouTube, Instagram, a Facebook Page). */
export interface AccountsTable {
  id: Generated<string>;
  user_id: string;
  /** The platform the account belongs to (migration 017); open_id is that platform's id of it. */
  platform: ColumnType<AccountPlatform, AccountPlatform | undefined, AccountPlatform>;
  open_id: string;
  union_id: string | null;
  display_name: string;
  username: string | null;
  avatar_url: string | null;
  access_token_enc: string;
  refresh_token_enc: string;
  access_expires_at: Timestamp;
  refresh_expires_at: Timestamp | null;
  scope: ColumnType<string, string | undefined, string>;
  needs_reconnect: ColumnType<boolean, boolean | undefined, boolean>;
  connected_via: ColumnType<'owner' | 'guest', 'owner' | 'guest' | undefined, 'owner' | 'guest'>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

interface StreamerAccountsTable {
  streamer_id: string;
  account_id: string;
  created_at: CreatedAt;
}

export interface OAuthStatesTable {
  state_hash: string;
  user_id: string;
  via: 'owner' | 'guest';
  platform: ColumnType<AccountPlatform, AccountPlatform | undefined, AccountPlatform>;
  /** The flow's PKCE code_verifier, encrypted (platform/crypto.ts). */
  code_verifier_enc: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** A user's connected Twitch account (migration 031): one per user. */
export interface TwitchConnectionsTable {
  user_id: string;
  twitch_user_id: string;
  login: string;
  scopes: ColumnType<string[], string | undefined, string>;
  access_token_enc: string;
  refresh_token_enc: string;
  access_expires_at: Timestamp;
  needs_reconnect: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** The Twitch authorize flow's single-use state, by its SHA-256. */
export interface TwitchOAuthStatesTable {
  state_hash: string;
  user_id: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface UploadsTable {
  id: Generated<string>;
  user_id: string;
  clip_row_id: string;
  /** Null once the account is removed: the upload stays as history. */
  account_id: string | null;
  /** The account's name when the upload was made ("@username" or the display name). */
  account_name: string;
  /** The platform's id of the account (open_id): a clip goes to one account at most once, even across reconnections. */
  account_open_id: string;
  status: ColumnType<UploadStatus, UploadStatus | undefined, UploadStatus>;
  mode: 'direct' | 'inbox';
  description: string;
  privacy_level: string | null;
  disable_comment: ColumnType<boolean, boolean | undefined, boolean>;
  disable_duet: ColumnType<boolean, boolean | undefined, boolean>;
  disable_stitch: ColumnType<boolean, boolean | undefined, boolean>;
  /** TikTok's commercial content disclosure: "Your brand" (brand_organic_toggle); false for other platforms. */
  brand_organic: ColumnType<boolean, boolean | undefined, boolean>;
  /** "Branded content" (brand_content_toggle); never with SELF_ONLY. */
  brand_content: ColumnType<boolean, boolean | undefined, boolean>;
  /** Instagram's Reels options (migration 026); other platforms keep the defaults. */
  instagram_share_to_feed: ColumnType<boolean, boolean | undefined, boolean>;
  instagram_trial_reel: ColumnType<boolean, boolean | undefined, boolean>;
  instagram_collaborators: ColumnType<string[], string[] | undefined, string[]>;
  publish_id: string | null;
  upload_url_enc: string | null;
  /** Share of the video's bytes the platform has received, 0–100; null before the upload starts (or where the platform fetches it). */
  percent: number | null;
  error: string | null;
  /** When it goes (or went) to its platform: its slot, or when it was queued; null for uploads older than posting slots. */
  scheduled_for: Timestamp | null;
  /** 'now': someone waits for the platform's answer; 'next-slot': automatic, a rate refusal waits for the next slot. */
  timing: ColumnType<'now' | 'next-slot', 'now' | 'next-slot' | undefined, 'now' | 'next-slot'>;
  platform: ColumnType<AccountPlatform, AccountPlatform | undefined, AccountPlatform>;
  /** The platform's id of the post (TikTok's public post id, YouTube video id, Instagram media id, Facebook video id), once known. */
  external_id: string | null;
  /** The YouTube title; null for other platforms. */
  title: string | null;
  /** YouTube's notifySubscribers; false for other platforms. */
  youtube_notify_subscribers: ColumnType<boolean, boolean | undefined, boolean>;
  /** What the platform did that was not asked for although the post went out (a video YouTube kept private). */
  warning: string | null;
  stats: ColumnType<PostStats | null, string | null | undefined, string | null>;
  stats_fetched_at: Timestamp | null;
  /** When the statistics are next read; null once they no longer are. */
  stats_due_at: Timestamp | null;
  /** When the post went public (status published); the statistics schedule counts from it. */
  published_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** One reading of a published post's counts (uploads.stats holds the latest). */
export interface PostStatsHistoryTable {
  upload_id: string;
  fetched_at: Timestamp;
  /** bigint columns: node-postgres reads them as strings. */
  views: ColumnType<string, number, number>;
  likes: ColumnType<string, number, number>;
  comments: ColumnType<string, number, number>;
  shares: ColumnType<string | null, number | null, number | null>;
}

/** An account's posting slots (absent: the account posts at once). */
export interface PostingSchedulesTable {
  account_id: string;
  timezone: string;
  slots: ColumnType<PostingSlot[], string, string>;
  daily_cap: number | null;
  min_gap_minutes: number;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface AppInstancesTable {
  id: string;
  host: string;
  pid: number;
  worker_pool_ids: ColumnType<string[], string[] | undefined, string[]>;
  started_at: CreatedAt;
  heartbeat_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface WebhooksTable {
  id: Generated<string>;
  user_id: string;
  url: string;
  kind: WebhookKind;
  events: WebhookEvent[];
  /** json webhooks' HMAC key, encrypted with the app secret; null for discord and slack. */
  secret_enc: string | null;
  created_at: CreatedAt;
  last_status: number | null;
  last_error: string | null;
  last_delivery_at: Timestamp | null;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** The stored body of one event: what every try of its delivery sends (formatted for the webhook's kind). */
export interface WebhookPayload {
  event: WebhookEvent | 'test';
  created_at: string;
  data: Record<string, unknown>;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  webhook_id: string;
  event: WebhookEvent;
  payload: ColumnType<WebhookPayload, string, never>;
  status: ColumnType<WebhookDeliveryStatus, WebhookDeliveryStatus | undefined, WebhookDeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp | null;
  last_status: number | null;
  last_error: string | null;
  created_at: CreatedAt;
  delivered_at: Timestamp | null;
}

export interface ApiTokensTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  /** The token's public half (cs_<lookup>_<secret>): what a request is looked up by. */
  lookup: string;
  /** SHA-256 of the secret half, compared in constant time. */
  secret_hash: Buffer;
  scopes: TokenScope[];
  created_at: CreatedAt;
  /** null: never expires. */
  expires_at: Timestamp | null;
  last_used_at: Timestamp | null;
}

/** Every table of the app: the one declaration of database types. */
export interface LiveWatchesTable {
  streamer_id: string;
  user_id: string;
  /** When Helix was last asked whether the streamer is live. */
  checked_at: Timestamp | null;
  live: ColumnType<boolean, boolean | undefined, boolean>;
  broadcaster_id: string | null;
  login: string | null;
  stream_id: string | null;
  stream_started_at: Timestamp | null;
  stream_title: string | null;
  /** The process reading the chat, and until when its lease holds. */
  reader_instance: string | null;
  reader_until: Timestamp | null;
}

export interface MomentsTable {
  id: Generated<string>;
  user_id: string;
  streamer_id: string;
  streamer_name: string;
  broadcaster_id: string;
  stream_id: string;
  stream_started_at: Timestamp;
  stream_offset: number;
  detected_at: CreatedAt;
  score: number;
  reasons: ColumnType<string[], string, string>;
  status: ColumnType<MomentStatus, MomentStatus | undefined, MomentStatus>;
  error: string | null;
  clip_id: string | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  invite_codes: InviteCodesTable;
  logs: LogsTable;
  rate_limits: RateLimitsTable;
  login_account_locks: LoginAccountLocksTable;
  user_settings: UserSettingsTable;
  streamers: StreamersTable;
  download_runs: DownloadRunsTable;
  clips: ClipsTable;
  subtitle_requests: SubtitleRequestsTable;
  accounts: AccountsTable;
  streamer_accounts: StreamerAccountsTable;
  oauth_states: OAuthStatesTable;
  uploads: UploadsTable;
  posting_schedules: PostingSchedulesTable;
  app_instances: AppInstancesTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  account_post_settings: AccountPostSettingsTable;
  approval_links: ApprovalLinksTable;
  post_stats_history: PostStatsHistoryTable;
  youtube_quota_days: YouTubeQuotaDaysTable;
  twitch_connections: TwitchConnectionsTable;
  twitch_oauth_states: TwitchOAuthStatesTable;
  live_watches: LiveWatchesTable;
  moments: MomentsTable;
  api_tokens: ApiTokensTable;
}
