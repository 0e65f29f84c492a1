import { z } from 'zod';
import { DESCRIPTION_MAX_LENGTH } from './constants.ts';
import { queryInt } from './input.ts';
import { CLIP_FORMATS, clipEdit, detectionSchema } from './studio.ts';
import { ACCOUNT_PLATFORMS, postStats } from './accounts.ts';
import { clipMoment } from './moments.ts';

export const DESCRIPTION_TOO_LONG = `Description must be at most ${DESCRIPTION_MAX_LENGTH} characters`;
export const DESCRIPTION_REQUIRED = 'Description is required';
const CLIP_PAGE_MAX = 100;
export const CLIP_PAGE_DEFAULT = 50;
/** Far beyond any library, and small enough that the row offset stays a safe integer. */
const CLIP_PAGE_LAST = 1_000_000;

const descriptionOption = z.object({
  description: z.string(),
  rank: z.number().min(0).max(1),
});
export type DescriptionOptionDto = z.infer<typeof descriptionOption>;

/** A whole percentage of work done, 0 to 100. */
export const wholePercent = z.number().int().min(0).max(100);

/** Where a clip's subtitle (re-)render stands: idle when none runs, failed until the next attempt. */
export const RENDER_STATUSES = ['idle', 'queued', 'rendering', 'failed'] as const;
export type RenderStatus = (typeof RENDER_STATUSES)[number];
/** The steps of a render, in order; the job's percent covers all of them. */
export const RENDER_STAGES = ['transcribing', 'rendering', 'describing'] as const;
export type RenderStage = (typeof RENDER_STAGES)[number];

export const clipRender = z.object({
  status: z.enum(RENDER_STATUSES),
  /** The step running (or the one that failed); null when idle or still queued. */
  stage: z.enum(RENDER_STAGES).nullable(),
  /** Of the whole job; null when idle. */
  percent: wholePercent.nullable(),
  /** Why the last attempt failed (status failed only). */
  error: z.string().nullable(),
});
export type ClipRender = z.infer<typeof clipRender>;
export const IDLE_RENDER: ClipRender = { status: 'idle', stage: null, percent: null, error: null };

export const RENDER_STAGE_LABELS: Record<RenderStage, string> = {
  transcribing: 'Transcribing',
  rendering: 'Rendering',
  describing: 'Writing descriptions',
};

/** A job is waiting or running for the clip: asking again is refused, and screens poll faster. */
export function isRenderActive(render: Pick<ClipRender, 'status'>): boolean {
  return render.status === 'queued' || render.status === 'rendering';
}

/** "Queued", "Transcribing 12%", "Rendering 61%". */
export function renderProgressLabel(render: Pick<ClipRender, 'status' | 'stage' | 'percent'>): string {
  if (render.status === 'queued') return 'Queued';
  const stage = render.stage ? RENDER_STAGE_LABELS[render.stage] : 'Working';
  return `${stage} ${render.percent ?? 0}%`;
}

export const postedToEntry = z.object({
  account: z.string(),
  status: z.string(),
  /** How much of the video TikTok has received; null before the upload starts. */
  percent: wholePercent.nullable(),
  platform: z.enum(ACCOUNT_PLATFORMS),
  /** TikTok's public post id or the YouTube video id, once known. */
  external_id: z.string().nullable(),
  /** The post's counts as last read from its platform (published posts). */
  stats: postStats.nullable(),
  /** Upload.warning: e.g. YouTube keeping the video private. */
  warning: z.string().nullable(),
});
export type PostedToEntry = z.infer<typeof postedToEntry>;

/** The rendered video's loudness, as ffmpeg's EBU R128 scanner measured the finished file. */
export const clipLoudness = z
  .object({
    integrated_lufs: z.number().describe('Integrated loudness in LUFS (normalised clips aim at -14)'),
    true_peak_dbtp: z.number().describe('True peak in dBTP (normalised clips stay at or under -1)'),
  })
  .describe('Measured on the rendered video when a render finishes; null for clips rendered before it was recorded and for videos without sound');
export type ClipLoudness = z.infer<typeof clipLoudness>;

export const clip = z.object({
  clip_id: z.string(),
  title: z.string(),
  streamer: z.string(),
  broadcaster_name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  view_count: z.number(),
  duration: z.number(),
  game_name: z.string().nullable(),
  language: z.string().nullable(),
  thumbnail: z.string(),
  thumbnail_url: z.string().nullable(),
  video_url: z.string(),
  video: z.string(),
  /** The rendered video's shape: vertical when it is taller than wide (9:16 renders, portrait sources). */
  format_type: z.enum(CLIP_FORMATS),
  /** The format the download gave the clip: what its edit's `format` null renders. */
  downloaded_format: z.enum(CLIP_FORMATS),
  subtitled: z.boolean(),
  custom_description: z.string().nullable(),
  selected_description: z.number(),
  metadata: z.object({ descriptions: z.array(descriptionOption) }),
  /**
   * The description generator's title-card line for the clip's first seconds (about what its
   * descriptions are about); null for clips described before hooks were proposed.
   */
  hook_suggestion: z.string().nullable(),
  /** Where this clip has gone to TikTok: one entry per account, with the upload's status. */
  posted_to: z.array(postedToEntry),
  /** The clip's subtitle or re-render job as it runs, so every screen shows the same state after a reload. */
  render: clipRender,
  /** The clip's own studio settings; each null where the streamer's applies. */
  edit: clipEdit,
  /** The part of the source the video shows (seconds from the source's start); the whole clip untrimmed. */
  trim_start: z.number(),
  trim_end: z.number(),
  /** Length of the rendered video (`duration` is the source's). */
  output_duration: z.number(),
  loudness: clipLoudness.nullable(),
  /** What camera detection found when the clip was last rendered with the `auto` layout; null when it did not look. */
  detected: detectionSchema.nullable(),
  /** The source is the streamer's own portrait version from Twitch (Get Clips Download), used as it is. */
  portrait_source: z.boolean(),
  /** The chat moment the clip was made of (its score and reasons); null for a viewer's clip. */
  moment: clipMoment.nullable(),
  /**
   * When retention (MEDIA_RETENTION_DAYS) deleted the clip's video and source, some days after its
   * last post; null while they are kept. The row, thumbnail and posts stay.
   */
  media_expired_at: z.string().nullable(),
  /** The rendered video's size in bytes, and its picture in pixels (null for clips saved before they were recorded): what postPreflight checks. */
  video_bytes: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
});
export type Clip = z.infer<typeof clip>;

export const clipDetails = clip.extend({ transcript: z.string().nullable() });
export type ClipDetails = z.infer<typeof clipDetails>;

const PAGING_RULE = `limit must be a whole number from 1 to ${CLIP_PAGE_MAX}`;
const PAGE_RULE = 'page must be a whole number of at least 1';

export const listClipsInput = z
  .object({
    streamer: z.string().trim().max(64).optional(),
    search: z.string().trim().max(200, 'search must be at most 200 characters').optional(),
    page: queryInt(z.number().int(PAGE_RULE).min(1, PAGE_RULE).max(CLIP_PAGE_LAST, `page must be at most ${CLIP_PAGE_LAST}`), PAGE_RULE).default(1),
    limit: queryInt(z.number().int(PAGING_RULE).min(1, PAGING_RULE).max(CLIP_PAGE_MAX, PAGING_RULE), PAGING_RULE).default(CLIP_PAGE_DEFAULT),
  })
  .default({ page: 1, limit: CLIP_PAGE_DEFAULT });
export type ListClipsInput = z.infer<typeof listClipsInput>;

export const clipList = z.object({
  clips: z.array(clip),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});
export type ClipList = z.infer<typeof clipList>;

export const clipIdInput = z.object({ id: z.string().trim().min(1).max(200) });

export const updateDescriptionsInput = z.object({
  id: z.string().trim().min(1).max(200),
  descriptions: z.array(z.object({ description: z.string().max(DESCRIPTION_MAX_LENGTH, DESCRIPTION_TOO_LONG), rank: z.number().min(0).max(1) })).max(20).optional(),
  custom_description: z.string().max(DESCRIPTION_MAX_LENGTH, DESCRIPTION_TOO_LONG).nullable().optional(),
  selected_description: z.number().int().min(-1, 'selected_description must be -1 or an index of descriptions').optional(),
});
export type UpdateDescriptionsInput = z.infer<typeof updateDescriptionsInput>;

/** Client-side sort options of the clips screen (spec section 5); down-date is the updated date. */
export const CLIP_SORTS = ['default', 'views-desc', 'views-asc', 'date-desc', 'date-asc', 'down-date-desc', 'down-date-asc'] as const;
export type ClipSort = (typeof CLIP_SORTS)[number];
export const CLIP_SORT_LABELS: Record<ClipSort, string> = {
  default: 'Default',
  'views-desc': 'Most viewed',
  'views-asc': 'Least viewed',
  'date-desc': 'Newest clip',
  'date-asc': 'Oldest clip',
  'down-date-desc': 'Recently downloaded',
  'down-date-asc': 'First downloaded',
};

type Sortable = Pick<Clip, 'view_count' | 'created_at' | 'updated_at'>;
const time = (iso: string) => new Date(iso).getTime();

/** Comparators by sort option; `default` keeps the server's order (newest first). */
const CLIP_COMPARATORS: Record<Exclude<ClipSort, 'default'>, (a: Sortable, b: Sortable) => number> = {
  'views-desc': (a, b) => b.view_count - a.view_count,
  'views-asc': (a, b) => a.view_count - b.view_count,
  'date-desc': (a, b) => time(b.created_at) - time(a.created_at),
  'date-asc': (a, b) => time(a.created_at) - time(b.created_at),
  'down-date-desc': (a, b) => time(b.updated_at) - time(a.updated_at),
  'down-date-asc': (a, b) => time(a.updated_at) - time(b.updated_at),
};

/** A sorted copy; ties keep their original order (Array.prototype.sort is stable). */
export function sortClips<T extends Sortable>(clips: readonly T[], sort: ClipSort): T[] {
  if (sort === 'default') return [...clips];
  return [...clips].sort(CLIP_COMPARATORS[sort]);
}

/** Suggestions highest rank first (spec section 5). */
export function sortByRank<T extends { rank: number }>(options: readonly T[]): T[] {
  return [...options].sort((a, b) => b.rank - a.rank);
}

export function rankPercent(rank: number): string {
  return `${Math.round(rank * 100)}%`;
}

export const HASHTAG_PATTERN = /(^|\s)#[\p{L}\p{N}_]+/gu;

/** The review step's counts (spec section 5). */
export function descriptionStats(text: string): { hashtags: number; words: number; characters: number } {
  const trimmed = text.trim();
  return {
    hashtags: (text.match(HASHTAG_PATTERN) ?? []).length,
    words: trimmed ? trimmed.split(/\s+/).length : 0,
    characters: text.length,
  };
}

/** What every refusal of a clip whose video retention deleted says (posting, rendering, the player). */
export const MEDIA_EXPIRED_MESSAGE = "This clip's video was deleted after it was posted, as the server's retention setting asks; its details and thumbnail stay";
