import { z } from 'zod';
import { queryInt } from '@clipshift/shared';
import { appRouter } from '../router.ts';
import type { Caller, ToolAnswer } from './tools.ts';

/*
 * The seam between list_moments and the Moments feature (issue 23), which is built apart: the tool
 * calls the `moments.list` procedure (GET /api/moments) when the app router has one, and answers
 * an empty list saying so until then.
 * TODO(moments): once moments.list is in the app router, use its shared input and Moment schemas
 * here instead of the contract's copies below, and call caller.moments.list directly.
 */

const MOMENTS_PROCEDURE = 'moments.list';
export const MOMENTS_NOT_AVAILABLE = 'Moments are not available on this server yet: no moments to list.';

/** GET /api/moments?streamer=&limit= (rest-api.md "Moments"). */
export const listMomentsInput = z.object({
  streamer: z.string({ error: 'streamer must be a name' }).trim().max(64, 'streamer must be a name').optional(),
  limit: queryInt(z.number().int().min(1, 'limit must be a whole number from 1 to 100').max(100, 'limit must be a whole number from 1 to 100'), 'limit must be a whole number from 1 to 100').optional(),
});

/** A moment as the contract gives it. */
const moment = z.object({
  id: z.string(),
  streamer: z.string(),
  detected_at: z.string(),
  stream_offset: z.number(),
  score: z.number(),
  reasons: z.array(z.string()),
  clip_id: z.string().nullable(),
  status: z.enum(['found', 'clipped', 'skipped', 'failed']),
  error: z.string().nullable(),
});
export const momentList = z.array(moment);

type Procedure = (input: unknown) => Promise<unknown>;

/** The moments procedure on this caller, when the app router has one. */
function momentsProcedure(caller: Caller): Procedure | null {
  if (!(MOMENTS_PROCEDURE in appRouter._def.procedures)) return null;
  const [group, name] = MOMENTS_PROCEDURE.split('.') as [string, string];
  const procedure = (caller as unknown as Record<string, Record<string, unknown> | undefined>)[group]?.[name];
  return typeof procedure === 'function' ? (procedure as Procedure) : null;
}

export async function listMoments(caller: Caller, args: Record<string, unknown>): Promise<ToolAnswer> {
  const procedure = momentsProcedure(caller);
  if (!procedure) return { text: MOMENTS_NOT_AVAILABLE, structured: { moments: [] } };
  const moments = momentList.parse(await procedure(args));
  const lines = moments.map((item) => `- ${item.id}: ${item.streamer} at ${item.detected_at}, score ${item.score} (${item.status}): ${item.reasons.join('; ')}`);
  return { text: moments.length ? [`${moments.length} moments:`, ...lines].join('\n') : 'No moments found.', structured: { moments } };
}
