import { z } from 'zod';

/*
 * Which Twitch clips a run picks (rest-api.md "Automation"): a period, a view floor, an allowlist
 * of clip creators, one clip per moment of a VOD, then a ranking. The rules are pure so the server
 * applies them and tests (or a future settings preview) can reason about them without Twitch.
 */

export const CLIP_PERIODS = ['day', 'week', 'month', 'all'] as const;
export type ClipPeriod = (typeof CLIP_PERIODS)[number];
export const RANK_BY = ['views', 'velocity'] as const;
export type RankBy = (typeof RANK_BY)[number];
export const PUBLISH_MODES = ['auto', 'review'] as const;
export type PublishMode = (typeof PUBLISH_MODES)[number];

export const MIN_VIEWS_MAX = 1_000_000_000;
export const CLIP_CREATORS_MAX = 100;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A month is 30 days: Twitch windows are plain time spans, not calendar months. */
const PERIOD_MS: Record<Exclude<ClipPeriod, 'all'>, number> = { day: DAY_MS, week: 7 * DAY_MS, month: 30 * DAY_MS };

/** Where the period begins (epoch ms), or null for `all`. */
export function periodStart(period: ClipPeriod, now: number): number | null {
  return period === 'all' ? null : now - PERIOD_MS[period];
}

const MIN_VIEWS_RULE = `min_views must be a whole number from 0 to ${MIN_VIEWS_MAX}`;
const CLIP_CREATORS_RULE = `clip_creators must be a list of at most ${CLIP_CREATORS_MAX} Twitch logins (letters, digits and _, at most 25 characters each)`;
const TWITCH_LOGIN = /^[a-z0-9_]{1,25}$/;

/** Logins lower-cased (Twitch logins are), blanks and repeats dropped. */
const clipCreatorsSchema = z
  .array(z.string({ error: CLIP_CREATORS_RULE }).trim().toLowerCase(), { error: CLIP_CREATORS_RULE })
  .transform((logins) => [...new Set(logins.filter(Boolean))])
  .superRefine((logins, ctx) => {
    const bad = logins.find((login) => !TWITCH_LOGIN.test(login));
    if (bad !== undefined) ctx.addIssue({ code: 'custom', message: `${CLIP_CREATORS_RULE}: "${bad.slice(0, 40)}" is not one` });
    else if (logins.length > CLIP_CREATORS_MAX) ctx.addIssue({ code: 'custom', message: CLIP_CREATORS_RULE });
  });

/** The selection fields of a streamer as requests send them. */
export const streamerSelectionFields = {
  clip_period: z.enum(CLIP_PERIODS, { error: 'clip_period must be day, week, month or all' }),
  min_views: z.number({ error: MIN_VIEWS_RULE }).int(MIN_VIEWS_RULE).min(0, MIN_VIEWS_RULE).max(MIN_VIEWS_MAX, MIN_VIEWS_RULE),
  rank_by: z.enum(RANK_BY, { error: 'rank_by must be views or velocity' }),
  clip_creators: clipCreatorsSchema,
  publish_mode: z.enum(PUBLISH_MODES, { error: 'publish_mode must be auto or review' }),
  featured_only: z.boolean({ error: 'featured_only must be true or false' }),
};

export const STREAMER_SELECTION_DEFAULTS = {
  clip_period: 'all',
  min_views: 0,
  rank_by: 'views',
  clip_creators: [],
  publish_mode: 'auto',
  featured_only: false,
} as const satisfies StreamerSelection;

/** A streamer's selection settings as the API shows them. */
export const streamerSelection = z.object({
  clip_period: z.enum(CLIP_PERIODS),
  min_views: z.number(),
  rank_by: z.enum(RANK_BY),
  clip_creators: z.array(z.string()),
  publish_mode: z.enum(PUBLISH_MODES),
  /** Only the clips Twitch marks as featured (`is_featured`). */
  featured_only: z.boolean(),
});
export type StreamerSelection = z.infer<typeof streamerSelection>;

/* The rules */

/** What the rules read of a Twitch clip (Helix Get Clips, external-apis.md A4). */
export interface CandidateClip {
  id: string;
  view_count: number;
  created_at: string;
  creator_name: string;
  /** "" when the VOD is unavailable. */
  video_id: string;
  /** Seconds into the VOD; null when there is none or Twitch has not computed it yet. */
  vod_offset: number | null;
  duration: number;
  /** Twitch's `is_featured`; absent when the listing did not say. */
  is_featured?: boolean | undefined;
}

export const SKIP_REASONS = ['period', 'min_views', 'creator', 'featured', 'overlap', 'library'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
/** How many listed clips each rule turned away in a run (a run's status shows it once it has listed). */
export const skipCountsSchema = z.object(
  Object.fromEntries(SKIP_REASONS.map((reason) => [reason, z.number().int().optional()])) as Record<SkipReason, z.ZodOptional<z.ZodNumber>>,
);
export type SkipCounts = z.infer<typeof skipCountsSchema>;

export interface SelectionRules extends Pick<StreamerSelection, 'clip_period' | 'min_views' | 'rank_by' | 'clip_creators'>, Partial<Pick<StreamerSelection, 'featured_only'>> {
  /** How many clips to pick. */
  limit: number;
  /** Twitch ids of clips the library already has. */
  library: ReadonlySet<string>;
  now: number;
}

export interface SkippedClip<T> {
  clip: T;
  reason: SkipReason;
  /** For `overlap`: the more viewed clip of the same VOD that was kept. */
  keptId?: string;
}

export interface Selection<T> {
  picked: T[];
  /**
   * Clips a rule refused that rank above the last pick (all refused ones when fewer than `limit`
   * were picked), best first: the ones a user would look for. Clips merely past the limit are not here.
   */
  skipped: SkippedClip<T>[];
}

/** Views per hour since the clip was made; a clip younger than an hour counts as one hour old. */
export function velocity(clip: Pick<CandidateClip, 'view_count' | 'created_at'>, now: number): number {
  const hours = (now - Date.parse(clip.created_at)) / HOUR_MS;
  return clip.view_count / Math.max(1, hours);
}

/**
 * Whether two clips show the same moment: the same VOD and time ranges sharing more than half of
 * the shorter clip. Clips without a VOD or an offset cannot be placed, so they never overlap.
 */
export function clipsOverlap(a: CandidateClip, b: CandidateClip): boolean {
  if (!a.video_id || a.video_id !== b.video_id || a.vod_offset === null || b.vod_offset === null) return false;
  const shared = Math.min(a.vod_offset + a.duration, b.vod_offset + b.duration) - Math.max(a.vod_offset, b.vod_offset);
  return shared > Math.min(a.duration, b.duration) / 2;
}

/**
 * Applies the rules in order: period, minimum views, creator allowlist, one clip per VOD moment
 * (the most viewed wins, even one the library has: a less viewed copy of a saved moment is still a
 * duplicate), already in the library; then ranks and takes `limit`.
 *
 * Creators are matched by display name lower-cased against the logins: Twitch's clip object carries
 * creator_name (the display name) and creator_id but not the login, and a display name is the login
 * with other capitals for everyone but names in other scripts — resolving logins to ids would cost
 * a Helix call per run for that rare case.
 *
 * Ranking: velocity sorts by views per hour; views with a period sorts by views; views over `all`
 * keeps the listed order, which is the provider's newest-window-first walk (most viewed within each
 * window), so recent hits are not crowded out by all-time ones.
 */
export function selectClips<T extends CandidateClip>(clips: readonly T[], rules: SelectionRules): Selection<T> {
  const from = periodStart(rules.clip_period, rules.now);
  const creators = new Set(rules.clip_creators.map((login) => login.toLowerCase()));
  const reasons = new Map<T, SkippedClip<T>>();
  const skip = (clip: T, reason: SkipReason, keptId?: string) => reasons.set(clip, keptId ? { clip, reason, keptId } : { clip, reason });

  const passing: T[] = [];
  for (const clip of clips) {
    if (from !== null && Date.parse(clip.created_at) < from) skip(clip, 'period');
    else if (clip.view_count < rules.min_views) skip(clip, 'min_views');
    else if (creators.size > 0 && !creators.has(clip.creator_name.toLowerCase())) skip(clip, 'creator');
    // The listing already asks Twitch for featured clips only; this holds where an answer ignores that.
    else if (rules.featured_only && clip.is_featured === false) skip(clip, 'featured');
    else passing.push(clip);
  }

  const kept = new Map<string, T[]>();
  for (const clip of [...passing].sort(byViews)) {
    const sameVod = kept.get(clip.video_id) ?? [];
    const winner = sameVod.find((other) => clipsOverlap(clip, other));
    if (winner) {
      skip(clip, 'overlap', winner.id);
      continue;
    }
    if (clip.video_id) kept.set(clip.video_id, [...sameVod, clip]);
  }

  const eligible = passing.filter((clip) => {
    if (reasons.has(clip)) return false;
    if (rules.library.has(clip.id)) {
      skip(clip, 'library');
      return false;
    }
    return true;
  });
  const rank = rankOrder(rules);
  const picked = rank(eligible).slice(0, Math.max(0, rules.limit));
  // A refused clip ranked below every pick would not have been taken anyway: not worth a reason.
  const order = rank(clips);
  const lastPick = picked[picked.length - 1];
  const last = picked.length < rules.limit ? order.length : lastPick ? order.indexOf(lastPick) : 0;
  const skipped = order.slice(0, last).flatMap((clip) => reasons.get(clip) ?? []);
  return { picked, skipped };
}

function rankOrder(rules: SelectionRules): <T extends CandidateClip>(clips: readonly T[]) => T[] {
  if (rules.rank_by === 'velocity') return (clips) => [...clips].sort((a, b) => velocity(b, rules.now) - velocity(a, rules.now) || byViews(a, b));
  if (rules.clip_period === 'all') return (clips) => [...clips];
  return (clips) => [...clips].sort(byViews);
}

/** Most viewed first; ties go to the newer clip, then the id, so the order never depends on input order. */
function byViews(a: CandidateClip, b: CandidateClip): number {
  return b.view_count - a.view_count || b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id);
}

export function countSkips(skipped: readonly SkippedClip<unknown>[]): SkipCounts {
  const counts: SkipCounts = {};
  for (const { reason } of skipped) counts[reason] = (counts[reason] ?? 0) + 1;
  return counts;
}

/** "4 under 500 views, 2 by other creators, 1 overlapping a more viewed clip of the same VOD". */
export function describeSkips(counts: SkipCounts, rules: Pick<StreamerSelection, 'clip_period' | 'min_views'>): string {
  return SKIP_REASONS.flatMap((reason) => {
    const count = counts[reason] ?? 0;
    return count > 0 ? [`${count} ${skipPhrase(reason, rules)}`] : [];
  }).join(', ');
}

/** Why one clip was skipped, in words. */
export function skipPhrase(reason: SkipReason, rules: Pick<StreamerSelection, 'clip_period' | 'min_views'>): string {
  switch (reason) {
    case 'period':
      return `made before this ${rules.clip_period}`;
    case 'min_views':
      return `under ${rules.min_views} views`;
    case 'creator':
      return 'by other creators';
    case 'featured':
      return 'not featured by the streamer';
    case 'overlap':
      return 'overlapping a more viewed clip of the same VOD';
    case 'library':
      return 'already in the library';
  }
}
