/*
 * Ranking description suggestions by what performed on the account (issue 14). Pure: the same
 * posts and suggestions always give the same order. See docs/decisions/0024-post-statistics.md.
 *
 * 1. Each published post with statistics gets a performance against its own account's typical
 *    post: d = log(views + 1) − the mean of log(views + 1) over the account's posts (so 0 is the
 *    account's geometric mean), kept within ±log 10 so one viral post cannot decide everything.
 *    Accounts with fewer than MIN_POSTS_PER_ACCOUNT such posts are left out (their typical post
 *    means nothing yet); several linked accounts are pooled, each measured against itself, so a
 *    big account does not drown a small one.
 * 2. Every post's description has features: each hashtag (case-insensitive), and one value per
 *    style dimension: caption length (short < 60 characters, medium up to 150, long), question or
 *    not, emoji or not, shouting capitals or not.
 * 3. A feature's lift is exp of the mean d of the posts that have it, shrunk toward 1 as if
 *    PRIOR_POSTS more posts of d = 0 had it too: log lift = Σ d / (n + PRIOR_POSTS). A feature every
 *    post has (the account's usual style) has lift 1; one post with #clutch at 4× the typical post
 *    gives #clutch a lift of 4^(1/4) ≈ 1.41, four such posts 4^(4/7) ≈ 2.2.
 * 4. A suggestion's score is exp(0.6 × mean log lift of its hashtags + 0.4 × mean log lift of its
 *    style values); hashtags the account never used count as lift 1.
 * 5. Suggestions are ordered by score, in steps of SCORE_STEP in log terms (smaller differences are
 *    ties), and then by their original rank. With no statistics every score is 1 and the order is
 *    the original one. The rank values stay the same set, handed out again in the new order, so
 *    the list stays sorted by rank, highest first.
 */

export const MIN_POSTS_PER_ACCOUNT = 3;
export const PRIOR_POSTS = 3;
export const MAX_RATIO = 10;
export const HASHTAG_WEIGHT = 0.6;
export const STYLE_WEIGHT = 0.4;
/** Score differences below about 5 % are ties: the original rank decides. */
export const SCORE_STEP = 0.05;

/** One published post with statistics: which account, what it said, how many saw it. */
export interface PostPerformance {
  account_id: string;
  description: string;
  views: number;
}

export interface FeatureLift {
  /** Shrunk geometric-mean ratio to the account's typical post: above 1 did better than usual. */
  lift: number;
  /** Posts that had the feature. */
  posts: number;
}

export interface PerformanceProfile {
  /** Posts that counted (of accounts with enough of them). */
  posts: number;
  /** Feature ("#tag", "length:short", "question:yes"…) → its lift. */
  features: Record<string, FeatureLift>;
}

export const EMPTY_PROFILE: PerformanceProfile = { posts: 0, features: {} };

const HASHTAG = /#([\p{L}\p{M}\p{N}_]+)/gu;
const EMOJI = /\p{Extended_Pictographic}/u;
const SHOUTED_WORD = /(^|[^\p{L}#])\p{Lu}{3,}(?![\p{L}])/u;

/** The features of a description: its hashtags ("#tag", lower case) and its style values. */
export function descriptionFeatures(text: string): { hashtags: string[]; style: string[] } {
  const hashtags = [...new Set([...text.matchAll(HASHTAG)].map((match) => `#${(match[1] ?? '').normalize('NFKC').toLowerCase()}`))];
  const body = text.replace(HASHTAG, '').replace(/\s+/g, ' ').trim();
  const length = [...body].length;
  const style = [
    `length:${length < 60 ? 'short' : length <= 150 ? 'medium' : 'long'}`,
    `question:${body.includes('?') ? 'yes' : 'no'}`,
    `emoji:${EMOJI.test(body) ? 'yes' : 'no'}`,
    `caps:${SHOUTED_WORD.test(body) ? 'yes' : 'no'}`,
  ];
  return { hashtags, style };
}

/** The account's (or linked accounts') performance profile from its published posts with statistics. */
export function performanceProfile(posts: readonly PostPerformance[]): PerformanceProfile {
  const byAccount = new Map<string, PostPerformance[]>();
  for (const post of posts) {
    if (!Number.isFinite(post.views) || post.views < 0) continue;
    byAccount.set(post.account_id, [...(byAccount.get(post.account_id) ?? []), post]);
  }
  const sums = new Map<string, { logSum: number; posts: number }>();
  let counted = 0;
  const cap = Math.log(MAX_RATIO);
  for (const accountPosts of byAccount.values()) {
    if (accountPosts.length < MIN_POSTS_PER_ACCOUNT) continue;
    const logs = accountPosts.map((post) => Math.log(post.views + 1));
    const typical = logs.reduce((sum, value) => sum + value, 0) / logs.length;
    accountPosts.forEach((post, index) => {
      const deviation = Math.min(cap, Math.max(-cap, logs[index]! - typical));
      const { hashtags, style } = descriptionFeatures(post.description);
      for (const feature of [...hashtags, ...style]) {
        const sum = sums.get(feature) ?? { logSum: 0, posts: 0 };
        sum.logSum += deviation;
        sum.posts += 1;
        sums.set(feature, sum);
      }
      counted += 1;
    });
  }
  const features: Record<string, FeatureLift> = {};
  for (const [feature, sum] of [...sums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    features[feature] = { lift: Math.exp(sum.logSum / (sum.posts + PRIOR_POSTS)), posts: sum.posts };
  }
  return { posts: counted, features };
}

function meanLogLift(profile: PerformanceProfile, features: readonly string[]): number {
  if (!features.length) return 0;
  const total = features.reduce((sum, feature) => sum + Math.log(profile.features[feature]?.lift ?? 1), 0);
  return total / features.length;
}

/** How much better than the account's usual a description is expected to do: 1 = as usual. */
export function performanceScore(profile: PerformanceProfile, description: string): number {
  if (!profile.posts) return 1;
  const { hashtags, style } = descriptionFeatures(description);
  return Math.exp(HASHTAG_WEIGHT * meanLogLift(profile, hashtags) + STYLE_WEIGHT * meanLogLift(profile, style));
}

/**
 * The suggestions (best first) in the order the profile prefers: by score in SCORE_STEP steps,
 * then by their original order; the rank values are handed out again in the new order. Without
 * statistics the order and ranks are unchanged.
 */
export function rankByPerformance<T extends { description: string; rank: number }>(suggestions: readonly T[], profile: PerformanceProfile): T[] {
  if (!profile.posts) return [...suggestions];
  const keyed = suggestions.map((suggestion, index) => ({
    suggestion,
    index,
    step: Math.round(Math.log(performanceScore(profile, suggestion.description)) / SCORE_STEP),
  }));
  keyed.sort((a, b) => b.step - a.step || a.index - b.index);
  const ranks = suggestions.map((suggestion) => suggestion.rank).sort((a, b) => b - a);
  return keyed.map(({ suggestion }, position) => ({ ...suggestion, rank: ranks[position] ?? suggestion.rank }));
}
