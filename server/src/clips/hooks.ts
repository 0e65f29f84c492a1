import type { AppDeps } from '../deps.ts';
import { llmConfigFromEnv, suggestDescriptions } from '../descriptions/index.ts';
import { recordLog } from '../logs/service.ts';
import type { ClipProcessingHooks } from './pipeline.ts';

/** The steps later capabilities add to clip processing, wired to this app's services. */
export function createClipHooks(deps: AppDeps): ClipProcessingHooks {
  const llm = llmConfigFromEnv(deps.env);
  return {
    describe: async (job, transcript) => {
      const result = await suggestDescriptions(
        {
          title: job.clip.title,
          streamer: job.streamer.display_name ?? job.streamer.name,
          gameName: job.gameName,
          transcript,
          language: job.clip.language && job.clip.language !== 'other' ? job.clip.language : job.streamer.language || null,
        },
        { llm, logger: deps.logger, signal: job.signal },
      );
      if (result.fallbackReason) {
        await recordLog(deps.db, deps.logger, {
          level: 'WARNING',
          logger: 'descriptions',
          message: `The description model failed for "${job.clip.title}"; built-in suggestions used instead: ${result.fallbackReason}`,
          userId: job.userId,
        });
      }
      return result.descriptions;
    },
  };
}
