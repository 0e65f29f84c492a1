import path from 'node:path';
import type { AppDeps } from '../deps.ts';
import { llmConfigFromEnv, suggestDescriptions } from '../../engines/descriptions/index.ts';
import { recordLog } from '../logs/service.ts';
import { whisperModelFor } from '../settings/service.ts';
import { captionClip } from '../subtitles/captions.ts';
import { autoPublish } from '../publishing/auto-publish.ts';
import type { ClipProcessingHooks } from './pipeline.ts';

/** The steps later capabilities add to clip processing, wired to this app's services. */
export function createClipHooks(deps: AppDeps): ClipProcessingHooks {
  const llm = llmConfigFromEnv(deps.env);
  return {
    // auto_subtitle: transcribe before the single render, so captions join that one encode.
    prepareSubtitles: async (job, sourcePath, info) => {
      if (!deps.transcriber) throw new Error(deps.transcriberProblem ?? 'Transcription is not configured');
      const { transcript, overlay } = await captionClip({
        transcriber: deps.transcriber,
        sourcePath,
        assPath: path.join(job.workDir, 'captions.ass'),
        target: job.vertical ? { width: 1080, height: 1920, vertical: true } : { width: info.width, height: info.height, vertical: false },
        language: job.streamer.language || undefined,
        // Runs have no browser behind them: the model is the one saved in Settings.
        model: await whisperModelFor(deps.db, job.userId),
        signal: job.signal,
      });
      if (!overlay) {
        await recordLog(deps.db, deps.logger, {
          level: 'INFO',
          logger: 'subtitles',
          message: `No speech found in "${job.clip.title}": rendered without captions`,
          userId: job.userId,
        });
        return null;
      }
      return { ...overlay, transcript: transcript.text };
    },
    // auto_publish: after subtitles (they ran before the render), post to every linked account
    // with the best-ranked description; the upload jobs run on their own.
    afterSaved: async (clipRowId, job) => {
      if (!job.streamer.auto_publish) return;
      await autoPublish(deps, clipRowId, job.userId, job.streamer.id);
    },
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
