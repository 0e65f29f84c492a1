import { isMetaError, type MetaError } from '../meta/errors.ts';
import { graphRequest, type MetaRuntime } from '../meta/graph.ts';
import type { ReelStats } from '../meta/types.ts';
import { engagementSchema, pagesSchema, permissionsSchema, reelStatusSchema, videoInsightsSchema, type FacebookPage, type ReelStatus } from './types.ts';

/*
 * Reading the person's permissions and Pages, a Reel's status and its insights (Graph API, tokens
 * in an Authorization header).
 */

export interface ApiConfig {
  /** FACEBOOK_GRAPH_URL, with its version */
  graphUrl: string;
}

/** The permissions the person granted (declined and expired ones left out). */
export async function grantedPermissions(config: ApiConfig, runtime: MetaRuntime, userToken: string, signal?: AbortSignal): Promise<string[]> {
  const body = await graphRequest(
    runtime,
    { platform: 'facebook', what: 'Facebook GET /me/permissions', method: 'GET', base: config.graphUrl, path: '/me/permissions', token: userToken, signal },
    permissionsSchema,
  );
  return body.data.filter((entry) => entry.status === 'granted').map((entry) => entry.permission);
}

/** Far more than anyone manages; a cursor that never ends cannot loop forever. */
const MAX_PAGE_REQUESTS = 50;

/**
 * The Pages the person manages, each with its Page token, following the cursor through every
 * result page. The `next` link Meta sends carries the token in its query, so the client builds
 * its own from the `after` cursor instead.
 */
export async function listPages(config: ApiConfig, runtime: MetaRuntime, userToken: string, signal?: AbortSignal): Promise<FacebookPage[]> {
  const pages: FacebookPage[] = [];
  let after: string | undefined;
  for (let request = 0; request < MAX_PAGE_REQUESTS; request++) {
    const body = await graphRequest(
      runtime,
      {
        platform: 'facebook',
        what: 'Facebook GET /me/accounts',
        method: 'GET',
        base: config.graphUrl,
        path: '/me/accounts',
        query: { fields: 'id,name,access_token,picture,tasks', limit: '100', after },
        token: userToken,
        signal,
      },
      pagesSchema,
    );
    for (const page of body.data) {
      // A Page listed without a token is one the person may see but not act for.
      if (!page.access_token) continue;
      pages.push({ pageId: page.id, name: page.name, accessToken: page.access_token, pictureUrl: page.picture?.data?.url ?? null, tasks: page.tasks ?? [] });
    }
    after = body.paging?.cursors?.after;
    if (!body.paging?.next || !after) return pages;
  }
  runtime.logger.warn({ pages: pages.length }, 'Facebook kept sending more Pages; the list was cut');
  return pages;
}

function phaseError(errors: { code?: number; message?: string }[] | undefined): string | null {
  const first = errors?.[0];
  if (!first) return null;
  return [first.message, first.code === undefined ? null : `(${first.code})`].filter(Boolean).join(' ') || null;
}

/** Where a Reel stands: bytes received, processing and publishing. */
export async function reelStatus(config: ApiConfig, runtime: MetaRuntime, pageToken: string, videoId: string, signal?: AbortSignal): Promise<ReelStatus> {
  const body = await graphRequest(
    runtime,
    { platform: 'facebook', what: 'Facebook GET /{video-id}?fields=status', method: 'GET', base: config.graphUrl, path: `/${encodeURIComponent(videoId)}`, query: { fields: 'status' }, token: pageToken, signal },
    reelStatusSchema,
  );
  const { status } = body;
  return {
    videoId,
    videoStatus: status.video_status ?? null,
    uploading: { status: status.uploading_phase?.status ?? null, bytesTransferred: status.uploading_phase?.bytes_transferred ?? null },
    processing: { status: status.processing_phase?.status ?? null, error: phaseError(status.processing_phase?.errors) },
    publishing: { status: status.publishing_phase?.status ?? null, publishStatus: status.publishing_phase?.publish_status ?? null, error: phaseError(status.publishing_phase?.errors) },
  };
}

/** Plays; reactions of every kind (Facebook's likes); comments and shares. */
const REEL_METRICS = ['blue_reels_play_count', 'post_video_likes_by_reaction_type', 'post_video_social_actions'];

type InsightValue = number | Record<string, number>;

const sum = (value: InsightValue): number => (typeof value === 'number' ? value : Object.values(value).reduce((total, count) => total + count, 0));
/** A by-type metric leaves out the types nobody used: a missing key is 0 once the metric itself is there. */
const part = (value: InsightValue | undefined, key: string): number | null => (value === undefined ? null : typeof value === 'number' ? null : (value[key] ?? 0));

async function readReelInsights(config: ApiConfig, runtime: MetaRuntime, pageToken: string, videoId: string, signal?: AbortSignal): Promise<ReelStats> {
  const body = await graphRequest(
    runtime,
    {
      platform: 'facebook',
      what: 'Facebook GET /{video-id}/video_insights',
      method: 'GET',
      base: config.graphUrl,
      path: `/${encodeURIComponent(videoId)}/video_insights`,
      query: { metric: REEL_METRICS.join(',') },
      token: pageToken,
      signal,
    },
    videoInsightsSchema,
  );
  const values = new Map(body.data.flatMap((entry) => (entry.values[0] ? [[entry.name, entry.values[0].value] as const] : [])));
  const plays = values.get('blue_reels_play_count');
  const reactions = values.get('post_video_likes_by_reaction_type');
  const actions = values.get('post_video_social_actions');
  return {
    views: plays === undefined ? null : sum(plays),
    likes: reactions === undefined ? null : sum(reactions),
    comments: part(actions, 'COMMENT'),
    shares: part(actions, 'SHARE'),
  };
}

/** Insights refused for this video or this token (a metric retired, insights not granted), not the Page's connection itself. */
function insightsRefused(error: MetaError): boolean {
  return error.kind === 'invalid_request' || error.graphCode === 10 || (error.graphCode !== null && error.graphCode >= 200 && error.graphCode <= 299);
}

/**
 * Views, likes, comments and shares of a published Reel from its video insights. Where Facebook
 * refuses those, the video's own like and comment totals are read instead, and views and shares
 * stay unknown.
 */
export async function getInsights(config: ApiConfig, runtime: MetaRuntime, pageToken: string, videoId: string, signal?: AbortSignal): Promise<ReelStats> {
  try {
    return await readReelInsights(config, runtime, pageToken, videoId, signal);
  } catch (error) {
    if (!isMetaError(error) || !insightsRefused(error)) throw error;
    runtime.logger.debug({ videoId, code: error.code }, 'Facebook refused the Reel insights; reading its like and comment totals');
  }
  const body = await graphRequest(
    runtime,
    {
      platform: 'facebook',
      what: 'Facebook GET /{video-id}?fields=likes,comments',
      method: 'GET',
      base: config.graphUrl,
      path: `/${encodeURIComponent(videoId)}`,
      query: { fields: 'likes.summary(true).limit(0),comments.summary(true).limit(0)' },
      token: pageToken,
      signal,
    },
    engagementSchema,
  );
  return { views: null, likes: body.likes?.summary?.total_count ?? null, comments: body.comments?.summary?.total_count ?? null, shares: null };
}
