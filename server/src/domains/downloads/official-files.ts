import type { AppDeps } from '../deps.ts';
import { recordLog } from '../logs/service.ts';
import { officialClipFile } from '../twitch/service.ts';
import type { ClipDownload } from '../../engines/providers/twitch/index.ts';

/**
 * Where one run gets clip files through Twitch's Get Clips Download (decision 0047): channels the
 * user's connected account may edit. What a channel answered once holds for the rest of the run,
 * so a channel the account does not edit is asked once, and a refused scope is logged once per run
 * (not per clip) before its clips go through GQL as before.
 */
export interface OfficialFiles {
  /** The clip's official file URLs, or null: fetch it through GQL. */
  fileFor(broadcasterId: string, clipId: string, signal: AbortSignal): Promise<ClipDownload | null>;
}

export function officialFilesForRun(deps: AppDeps, userId: string, streamerName: string): OfficialFiles {
  /** Channels whose clips go through GQL for the rest of the run. */
  const viaGql = new Set<string>();
  /** Each channel's first question (answer read and remembered), which its clips in parallel lanes wait for before asking their own. */
  const firstAsked = new Map<string, Promise<unknown>>();
  let noAccount = false;
  let warned = false;

  async function ask(broadcasterId: string, clipId: string, signal: AbortSignal): Promise<ClipDownload | null> {
    const answer = await officialClipFile(deps, userId, broadcasterId, clipId, signal);
    switch (answer.kind) {
      case 'file':
        return answer.download;
      case 'none':
        noAccount = true;
        return null;
      case 'no_file':
        return null;
      case 'not_editor':
        viaGql.add(broadcasterId);
        return null;
      case 'refused':
        viaGql.add(broadcasterId);
        // Set before the write: one row per run, whatever the lanes do.
        if (warned) return null;
        warned = true;
        await recordLog(deps.db, deps.logger, {
          level: 'WARNING',
          logger: 'downloads',
          message: `Twitch refused the connected account's access to ${streamerName}'s clip files (${answer.reason}); this run fetches them as before. Reconnect Twitch in Settings to grant editor:manage:clips or channel:manage:clips`,
          userId,
        });
        return null;
    }
  }

  return {
    async fileFor(broadcasterId, clipId, signal) {
      const first = firstAsked.get(broadcasterId);
      if (first) await first;
      if (noAccount || viaGql.has(broadcasterId)) return null;
      const asking = ask(broadcasterId, clipId, signal);
      if (!first) firstAsked.set(broadcasterId, asking.catch(() => undefined));
      return asking;
    },
  };
}
