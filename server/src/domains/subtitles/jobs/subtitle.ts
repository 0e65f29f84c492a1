import type { AppDeps } from '../../deps.ts';
import { markSubtitled, recentSuggestionTexts } from '../../clips/service.ts';
import { describeClip } from '../../descriptions/service.ts';
import { linkedPlatforms, performanceProfileFor } from '../../publishing/service.ts';
import { findStreamerById } from '../../streamers/service.ts';
import { clipRenderPlan, makeClipVideo, NoSpeechFound, type CaptionSource } from '../../studio/service.ts';
import type { WorkerIdentity } from '../../../platform/identity.ts';
import { SUBTITLE_JOB } from '../../../platform/queue/contracts.ts';
import { defineJob } from '../../../platform/queue/define.ts';
import { NO_SPEECH } from '../service.ts';
import { reportStage, runClipRequest, type RequestOutcome, type RequestRun } from './clip-request.ts';

/**
 * `subtitles/generate`: transcribe the kept source with the streamer's glossary as vocabulary (or,
 * when the user corrected the transcript and did not ask to transcribe again, take the saved words
 * as they are), render the clip again through the studio's pipeline with the captions in its one
 * encode, then mark it subtitled with its transcript and fresh description suggestions. A clip with
 * no speech is left as it was.
 */
export function subtitleJob(deps: AppDeps, identity: WorkerIdentity) {
  return defineJob({
    ...SUBTITLE_JOB,
    run: ({ requestId }, ctx) =>
      runClipRequest(deps, identity, requestId, ctx, {
        kind: 'subtitles',
        firstStage: 'transcribing',
        logger: 'subtitles',
        failed: (reason) => `Subtitle generation failed: ${reason}`,
        failedLog: (title, reason) => `Subtitles for "${title}" failed: ${reason}`,
        work: (run) => subtitle(deps, run),
      }),
  });
}

/** The user's corrected words are burned as they are; only "transcribe again" replaces them. */
function wordsToBurn(run: RequestRun, streamerLanguage: string | null): CaptionSource {
  const { clip, request } = run;
  if (!request.retranscribe && clip.transcript_edited && clip.transcript_words?.length) {
    return { kind: 'saved', words: clip.transcript_words, language: clip.transcript_language };
  }
  return { kind: 'transcribe', language: streamerLanguage || clip.language || null, model: request.model ?? undefined, speechRequired: true };
}

async function subtitle(deps: AppDeps, run: RequestRun): Promise<RequestOutcome> {
  const { clip, signal, progress } = run;
  const streamer = clip.streamer_id ? await findStreamerById(deps.db, clip.streamer_id) : undefined;
  let video;
  try {
    video = await makeClipVideo(deps, {
      source: run.source,
      workDir: run.workDir,
      plan: (sourceDurationSec) => clipRenderPlan(deps.db, clip, sourceDurationSec, { streamer: streamer ?? null }),
      captions: wordsToBurn(run, streamer?.language || null),
      // Described before the render: the hook it suggests can title the clip in the same encode.
      describe: async (spoken) => {
        progress.report('describing', 0);
        return describeClip(deps, {
          clip: { clipId: clip.clip_id, platforms: await linkedPlatforms(deps.db, clip.streamer_id), title: clip.title, streamer: clip.broadcaster_name, gameName: clip.game_name, transcript: spoken.text, language: spoken.language ?? clip.language },
          userId: clip.user_id,
          performance: await performanceProfileFor(deps.db, clip.user_id, clip.streamer_id),
          avoid: await recentSuggestionTexts(deps.db, { userId: clip.user_id, streamer: clip.streamer_name, exceptClipId: clip.clip_id }),
          signal,
        });
      },
      signal,
      onStage: reportStage(progress),
    });
  } catch (error) {
    if (!(error instanceof NoSpeechFound)) throw error;
    return { kind: 'unchanged', status: 'no_speech', message: NO_SPEECH, log: `No speech found in "${clip.title}" (${clip.clip_id}): no subtitles added` };
  }
  // The pipeline described the clip (its describe step always runs when given).
  const { descriptions, hook } = video.described!;
  const wordCount = video.recognised?.words.length ?? clip.transcript_words?.length ?? 0;
  return {
    kind: 'replace',
    files: video.files,
    // null keeps the saved (edited) words as they are.
    record: (trx) => markSubtitled(trx, clip.id, { transcript: video.recognised, video: video.rendered, descriptions, hookSuggestion: hook }),
    log: `Subtitles added to "${clip.title}" (${clip.clip_id}, ${wordCount} words)`,
  };
}
