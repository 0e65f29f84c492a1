import type { AppDeps } from '../deps.ts';
import type { DescriptionOption } from '../../platform/db/schema.ts';
import { llmConfigFromEnv, suggestDescriptions, type DescriptionInput } from '../../engines/descriptions/index.ts';
import { recordLog } from '../logs/service.ts';

interface DescribeRequest {
  clip: DescriptionInput;
  userId: string;
  signal?: AbortSignal;
}

/**
 * The ranked description suggestions of a clip (best first), from the configured model or the
 * built-in generator. A model that failed is reported in the user's log, since the suggestions
 * then read differently from what they configured.
 */
export async function describeClip(deps: AppDeps, request: DescribeRequest): Promise<DescriptionOption[]> {
  const result = await suggestDescriptions(request.clip, { llm: llmConfigFromEnv(deps.env), logger: deps.logger, signal: request.signal });
  if (result.fallbackReason) {
    await recordLog(deps.db, deps.logger, {
      level: 'WARNING',
      logger: 'descriptions',
      message: `The description model failed for "${request.clip.title}"; built-in suggestions used instead: ${result.fallbackReason}`,
      userId: request.userId,
    });
  }
  return result.descriptions;
}
