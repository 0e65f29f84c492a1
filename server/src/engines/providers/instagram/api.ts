import { isMetaError } from '../meta/errors.ts';
import { graphRequest, type MetaRuntime } from '../meta/graph.ts';
import type { ReelStats } from '../meta/types.ts';
import { insightsSchema, mediaCountsSchema, meSchema, publishingLimitSchema, type InstagramUser, type PublishingLimit } from './types.ts';

/*
 * Reading the account, its publishing limit and a post's insights (graph.instagram.com, the user's
 * token in an Authorization header).
 */

export interface ApiConfig {
  /** INSTAGRAM_GRAPH_URL */
  graphUrl: string;
}

export async function getMe(config: ApiConfig, runtime: MetaRuntime, token: string, signal?: AbortSignal): Promise<InstagramUser> {
  const me = await graphRequest(
    runtime,
    { platform: 'instagram', what: 'Instagram GET /me', method: 'GET', base: config.graphUrl, path: '/me', query: { fields: 'user_id,username,name,profile_picture_url' }, token, signal },
    meSchema,
  );
  return { userId: me.user_id, username: me.username, name: me.name ?? null, avatarUrl: me.profile_picture_url ?? null };
}

/** Posts published through the API in the moving window (by default 100 in 24 hours), before one more is tried. */
export async function publishingLimit(config: ApiConfig, runtime: MetaRuntime, token: string, igUserId: string, signal?: AbortSignal): Promise<PublishingLimit> {
  const body = await graphRequest(
    runtime,
    {
      platform: 'instagram',
      what: 'Instagram GET /{ig-user-id}/content_publishing_limit',
      method: 'GET',
      base: config.graphUrl,
      path: `/${encodeURIComponent(igUserId)}/content_publishing_limit`,
      query: { fields: 'quota_usage,config' },
      token,
      signal,
    },
    publishingLimitSchema,
  );
  const [limit] = body.data;
  return { used: limit?.quota_usage ?? 0, total: limit?.config?.quota_total ?? 100, windowSeconds: limit?.config?.quota_duration ?? 86_400 };
}

const METRICS = ['views', 'likes', 'comments', 'shares'] as const;
type Metric = (typeof METRICS)[number];

async function readMetrics(config: ApiConfig, runtime: MetaRuntime, token: string, mediaId: string, metrics: readonly Metric[], signal?: AbortSignal): Promise<Map<string, number>> {
  const body = await graphRequest(
    runtime,
    {
      platform: 'instagram',
      what: 'Instagram GET /{media-id}/insights',
      method: 'GET',
      base: config.graphUrl,
      path: `/${encodeURIComponent(mediaId)}/insights`,
      query: { metric: metrics.join(',') },
      token,
      signal,
    },
    insightsSchema,
  );
  const values = new Map<string, number>();
  for (const entry of body.data) {
    const value = entry.values?.[0]?.value ?? entry.total_value?.value;
    if (value !== undefined) values.set(entry.name, value);
  }
  return values;
}

/**
 * One refused metric (Instagram retires metrics and refuses some per media type) refuses the whole
 * call with #100: then each is asked alone, and the ones refused stay unknown.
 */
async function readEachMetric(config: ApiConfig, runtime: MetaRuntime, token: string, mediaId: string, signal?: AbortSignal): Promise<Map<string, number>> {
  const values = new Map<string, number>();
  for (const metric of METRICS) {
    try {
      for (const [name, value] of await readMetrics(config, runtime, token, mediaId, [metric], signal)) values.set(name, value);
    } catch (error) {
      if (!isMetaError(error, 'invalid_request')) throw error;
      runtime.logger.debug({ metric, code: error.code }, 'Instagram refused an insights metric');
    }
  }
  return values;
}

/**
 * Views, likes, comments and shares of a published Reel. A metric Instagram has no data for yet
 * (insights come up to 48 hours late) or refuses is null; likes and comments then come from the
 * media's own like_count and comments_count.
 */
export async function getInsights(config: ApiConfig, runtime: MetaRuntime, token: string, mediaId: string, signal?: AbortSignal): Promise<ReelStats> {
  let values: Map<string, number>;
  try {
    values = await readMetrics(config, runtime, token, mediaId, METRICS, signal);
  } catch (error) {
    if (!isMetaError(error, 'invalid_request')) throw error;
    values = await readEachMetric(config, runtime, token, mediaId, signal);
  }
  const stats: ReelStats = { views: values.get('views') ?? null, likes: values.get('likes') ?? null, comments: values.get('comments') ?? null, shares: values.get('shares') ?? null };
  if (stats.likes !== null && stats.comments !== null) return stats;
  const counts = await graphRequest(
    runtime,
    { platform: 'instagram', what: 'Instagram GET /{media-id}', method: 'GET', base: config.graphUrl, path: `/${encodeURIComponent(mediaId)}`, query: { fields: 'like_count,comments_count' }, token, signal },
    mediaCountsSchema,
  );
  return { ...stats, likes: stats.likes ?? counts.like_count ?? null, comments: stats.comments ?? counts.comments_count ?? null };
}
