import { z } from 'zod';
import { accountStatsInput, approveClipInput, clipIdInput, listClipsInput, listMomentsInput, moment, momentScoreLabel, postClipInput, reviewClipInput, startDownloadInput, type ClipList, type StatusMap } from '@clipshift/shared';
import type { createCaller } from '../router.ts';
import { schemasOf } from '../rest/openapi.ts';

/*
 * The MCP tools (rest-api.md "Tokens and agents", docs/decisions/0045-mcp-server.md). Each one calls
 * the tRPC procedure of the REST route it stands for, through a caller made with the token's
 * context: the procedure checks the token's scope (access.ts), validates the input with its own
 * schema and applies exactly the rules the route does. The tool's input schema is that same
 * shared zod schema, as JSON Schema.
 */

export type Caller = ReturnType<typeof createCaller>;

/** What a tool answers: one line or a few for the model to read, and the procedure's answer as data. */
export interface ToolAnswer {
  text: string;
  structured: Record<string, unknown>;
}

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  /** The REST input schema; the procedure validates the arguments with it. */
  input?: z.ZodObject;
  /** The shape of structuredContent. */
  output: z.ZodObject;
  readOnly: boolean;
  run(caller: Caller, args: Record<string, unknown>): Promise<ToolAnswer>;
}

type ProcedurePath = Parameters<typeof schemasOf>[0]['procedure'];

/** The output schema of a procedure (its validated() one), for a tool's outputSchema. */
function outputOf(procedure: ProcedurePath): z.ZodType {
  const output = schemasOf({ procedure }).output;
  if (!output) throw new Error(`The procedure ${procedure} declares no output`);
  return output;
}

/** The output of a procedure that answers an object: structuredContent as it is. */
function objectOutputOf(procedure: ProcedurePath): z.ZodObject {
  const output = outputOf(procedure);
  if (!(output instanceof z.ZodObject)) throw new Error(`The procedure ${procedure} does not answer an object`);
  return output;
}

/** The arguments as the procedure takes them: it parses them with its own schema, so nothing is assumed here. */
const asInput = <T>(args: Record<string, unknown>) => args as T;

const listed = (names: string[], max = 10) => (names.length > max ? `${names.slice(0, max).join(', ')} and ${names.length - max} more` : names.join(', '));

function runsInWords(status: StatusMap): string {
  const entries = Object.entries(status);
  if (!entries.length) return 'No download has run yet.';
  return entries
    .map(([name, run]) => `${name}: ${run.status}, ${run.clips_downloaded} of ${run.clips_total} clips${run.clips_failed ? `, ${run.clips_failed} failed` : ''}${run.error ? ` (${run.error})` : ''}`)
    .join('\n');
}

function clipsInWords(list: ClipList): string {
  const pages = Math.max(1, Math.ceil(list.total / list.limit));
  const lines = list.clips.map((clip) => `- ${clip.clip_id}: ${clip.title} (${clip.streamer})`);
  return [`Page ${list.page} of ${pages}: ${list.clips.length} of ${list.total} clips, newest first.`, ...lines].join('\n');
}

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'list_streamers',
    title: 'List streamers',
    description: "The user's Twitch streamers, sorted by name, with their settings (clip limit, layout, publish mode, schedule). Use a streamer's name with start_download or list_clips.",
    output: z.object({ streamers: outputOf('streamers.list') }),
    readOnly: true,
    run: async (caller) => {
      const streamers = await caller.streamers.list();
      return { text: streamers.length ? `${streamers.length} streamers: ${listed(streamers.map((item) => item.name))}` : 'No streamers yet.', structured: { streamers } };
    },
  },
  {
    name: 'start_download',
    title: 'Start a download',
    description:
      "Start downloading a streamer's most-viewed Twitch clips (as POST /api/downloads/start/{name}). Answers at once; the run goes on in the background: follow it with download_status, then find the clips with list_clips.",
    input: startDownloadInput,
    output: objectOutputOf('downloads.start').extend({ streamer: z.string() }),
    readOnly: false,
    run: async (caller, args) => {
      const started = await caller.downloads.start(asInput<z.input<typeof startDownloadInput>>(args));
      const name = String(args.name ?? '').trim();
      return { text: `${started.message}. Follow it with download_status (streamer "${name}").`, structured: { ...started, streamer: name } };
    },
  },
  {
    name: 'download_status',
    title: 'Download status',
    description: "The latest download run of every streamer, by name: its status (downloading, completed, failed, stopped), clips downloaded, total and failed, and the clips being worked on.",
    output: z.object({ runs: outputOf('downloads.status') }),
    readOnly: true,
    run: async (caller) => {
      const runs = await caller.downloads.status();
      return { text: runsInWords(runs), structured: { runs } };
    },
  },
  {
    name: 'list_clips',
    title: 'List clips',
    description: "A page of the user's clip library, newest first; filter by streamer name or a search in titles. Each clip has its clip_id for get_clip, render_clip and post_clip.",
    // The route's schema defaults a missing query to {}; a tool's arguments are always an object.
    input: listClipsInput.unwrap(),
    output: objectOutputOf('clips.list'),
    readOnly: true,
    run: async (caller, args) => {
      const list = await caller.clips.list(asInput<z.input<typeof listClipsInput>>(args));
      return { text: clipsInWords(list), structured: list };
    },
  },
  {
    name: 'get_clip',
    title: 'Get a clip',
    description: "One clip with its transcript, its description suggestions, where it was posted (uploads with their status) and its render job's progress. Use after render_clip to see whether the render finished.",
    input: clipIdInput,
    output: objectOutputOf('clips.details'),
    readOnly: true,
    run: async (caller, args) => {
      const clip = await caller.clips.details(asInput<z.input<typeof clipIdInput>>(args));
      const render = clip.render.status === 'idle' ? 'no render running' : `render ${clip.render.status}${clip.render.percent === null ? '' : ` ${clip.render.percent} %`}`;
      return { text: `${clip.clip_id}: ${clip.title} (${clip.streamer}); posted to ${clip.posted_to.length} accounts; ${render}`, structured: clip };
    },
  },
  {
    name: 'list_moments',
    title: 'List moments',
    description: "Moments found while a watched streamer was live (chat bursts that may become clips), newest first, with their score, reasons and the clip made of them.",
    input: listMomentsInput.unwrap(),
    output: z.object({ moments: z.array(moment) }),
    readOnly: true,
    run: async (caller, args) => {
      const moments = await caller.moments.list(asInput<z.input<typeof listMomentsInput>>(args));
      const lines = moments.map((item) => `- ${item.streamer}, ${item.detected_at}: ${momentScoreLabel(item.score)}, ${item.status}${item.clip_id ? ` (clip ${item.clip_id})` : ''}: ${item.reasons.join('; ')}`);
      return { text: moments.length ? [`${moments.length} moments, newest first:`, ...lines].join('\n') : 'No moments found yet.', structured: { moments } };
    },
  },
  {
    name: 'list_review',
    title: 'List clips waiting for review',
    description: 'Clips waiting for review before they are posted, the longest waiting first. Approve one with approve_clip (its posts are queued) or reject it with reject_clip.',
    output: z.object({ clips: outputOf('review.list') }),
    readOnly: true,
    run: async (caller) => {
      const clips = await caller.review.list();
      const lines = clips.map((clip) => `- ${clip.clip_id}: ${clip.title} (${clip.streamer})`);
      return { text: clips.length ? [`${clips.length} clips wait for review:`, ...lines].join('\n') : 'No clips wait for review.', structured: { clips } };
    },
  },
  {
    name: 'approve_clip',
    title: 'Approve a clip',
    description:
      "Approve a clip waiting for review (as POST /api/review/{clip_id}/approve): its posts are queued to the accounts given, else the streamer's linked ones, with the best-ranked description unless one is given. Follow the posts with list_queue.",
    input: approveClipInput,
    output: objectOutputOf('review.approve'),
    readOnly: false,
    run: async (caller, args) => {
      const approved = await caller.review.approve(asInput<z.input<typeof approveClipInput>>(args));
      return { text: `${approved.message}. Follow the posts with list_queue.`, structured: approved };
    },
  },
  {
    name: 'reject_clip',
    title: 'Reject a clip',
    description: 'Reject a clip waiting for review: it stays in the library and is never posted automatically.',
    input: reviewClipInput,
    output: objectOutputOf('review.reject'),
    readOnly: false,
    run: async (caller, args) => {
      const rejected = await caller.review.reject(asInput<z.input<typeof reviewClipInput>>(args));
      return { text: rejected.message, structured: rejected };
    },
  },
  {
    name: 'render_clip',
    title: 'Render a clip',
    description:
      "Render the clip again from its source with its saved settings (layout, captions, trim, brand), as POST /api/clips/{id}/render. Answers at once; the render runs in the background: follow it with get_clip: its render status goes back to idle when the new video is in place (failed says why).",
    input: clipIdInput,
    output: objectOutputOf('subtitles.render').extend({ clip_id: z.string() }),
    readOnly: false,
    run: async (caller, args) => {
      const rendering = await caller.subtitles.render(asInput<z.input<typeof clipIdInput>>(args));
      const id = String(args.id ?? '').trim();
      return { text: `${rendering.message}. Follow it with get_clip (id "${id}").`, structured: { ...rendering, clip_id: id } };
    },
  },
  {
    name: 'post_clip',
    title: 'Post a clip',
    description:
      "Post a clip to accounts of any platform (TikTok, YouTube, Instagram, Facebook Pages): account_ids, or none for every account linked to the clip's streamer, with each platform's options; the same checks as POST /api/clips/{id}/post. Answers once the posts are queued, with their upload ids: follow them with list_queue.",
    input: postClipInput,
    output: objectOutputOf('posting.start'),
    readOnly: false,
    run: async (caller, args) => {
      const queued = await caller.posting.start(asInput<z.input<typeof postClipInput>>(args));
      const ids = queued.uploads.map((item) => `${item.account} (upload ${item.id}, ${item.status})`);
      return { text: `${queued.message}: ${ids.join('; ')}. Follow them with list_queue.`, structured: queued };
    },
  },
  {
    name: 'list_queue',
    title: 'List the posting queue',
    description: 'Posts not yet finished, soonest first: each with its clip, account, platform, status (pending, scheduled, uploading, processing) and when it goes out. A post that is gone from the queue has been published or failed (get_clip shows which).',
    output: z.object({ posts: outputOf('queue.list') }),
    readOnly: true,
    run: async (caller) => {
      const posts = await caller.queue.list();
      const lines = posts.map((post) => `- ${post.id}: "${post.clip_title}" to ${post.account} (${post.platform}), ${post.status}, ${post.scheduled_for ?? 'now'}${post.error ? `: ${post.error}` : ''}`);
      return { text: posts.length ? [`${posts.length} posts in the queue:`, ...lines].join('\n') : 'The queue is empty.', structured: { posts } };
    },
  },
  {
    name: 'account_stats',
    title: 'Account statistics',
    description:
      "Post statistics of one connected account (id): totals of its published posts' views, likes, comments and shares, views per day over the last `days` days (default 30, at most 90) and its 5 most-viewed posts. Without an id, lists the accounts to choose from.",
    input: accountStatsInput.partial({ id: true }),
    output: z.object({ stats: outputOf('accounts.stats').optional(), accounts: outputOf('accounts.list').optional() }),
    readOnly: true,
    run: async (caller, args) => {
      if (args.id === undefined) {
        const accounts = await caller.accounts.list();
        const lines = accounts.map((account) => `- ${account.id}: ${account.display_name} (${account.platform})`);
        return { text: accounts.length ? ['Pass one of these account ids:', ...lines].join('\n') : 'No accounts are connected.', structured: { accounts } };
      }
      const stats = await caller.accounts.stats(asInput<z.input<typeof accountStatsInput>>(args));
      const { views, likes, comments, posts } = stats.totals;
      return { text: `${stats.platform} account ${stats.account_id}: ${posts} posts, ${views} views, ${likes} likes, ${comments} comments.`, structured: { stats } };
    },
  },
];
