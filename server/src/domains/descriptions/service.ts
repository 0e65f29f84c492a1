import { rankByPerformance, type PerformanceProfile } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import type { DescriptionOption } from '../../platform/db/schema.ts';
import { llmConfigFromEnv, suggestDescriptions, type DescriptionInput } from '../../engines/descriptions/index.ts';
import { recordLog } from '../logs/service.ts';

interface DescribeRequest {
  clip: DescriptionInput;
  userId: string;
  /**
   * How the posts of the clip's streamer's linked accounts performed (publishing's
   * performanceProfileFor, fetched by the caller: publishing sits above this domain). Suggestions
   * that look like what did well there move up; without statistics the order is the scorer's.
   */
  performance?: PerformanceProfile;
  /**
   * The streamer's recent suggestion texts, newest first (clips' recentSuggestionTexts, fetched by
   * the caller: clips owns them): none is offered again, so no two of the streamer's clips read alike.
   */
  avoid?: readonly string[];
  signal?: AbortSignal;
}

/** What a clip is offered: descriptions to pick from, and a title card line for its first seconds. */
export interface ClipSuggestions {
  descriptions: DescriptionOption[];
  hook: string;
}

/**
 * The ranked description suggestions of a clip (best first) and its hook, from the configured model
 * or the built-in generator, reordered by what performed on the streamer's accounts when that is
 * known (shared/ranking.ts). A model that failed is reported in the user's log, since the
 * suggestions then read differently from what they configured.
 */
export async function describeClip(deps: AppDeps, request: DescribeRequest): Promise<ClipSuggestions> {
  const result = await suggestDescriptions(request.clip, { llm: llmConfigFromEnv(deps.env), logger: deps.logger, signal: request.signal, avoid: request.avoid });
  if (result.fallbackReason) {
    await recordLog(deps.db, deps.logger, {
      level: 'WARNING',
      logger: 'descriptions',
      message: `The description model failed for "${request.clip.title}"; built-in suggestions used instead: ${result.fallbackReason}`,
      userId: request.userId,
    });
  }
  if (!request.performance?.posts) return { descriptions: result.descriptions, hook: result.hook };
  const ranked = rankByPerformance(result.descriptions, request.performance);
  deps.logger.debug({ posts: request.performance.posts, reordered: ranked.some((item, index) => item.description !== result.descriptions[index]?.description) }, 'description suggestions ranked with post statistics');
  return { descriptions: ranked, hook: result.hook };
}
