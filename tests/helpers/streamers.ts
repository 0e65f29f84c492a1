import type { AppDeps } from '../../server/src/domains/deps.ts';

/**
 * A streamer row with the spec's defaults, written straight to the database: for tests that need
 * one without a Twitch to check its name against.
 */
export async function seedStreamer(deps: AppDeps, userId: string, name: string, displayName: string | null = null): Promise<string> {
  const row = await deps.db
    .insertInto('streamers')
    .values({
      user_id: userId,
      name,
      display_name: displayName,
      twitch_user_id: null,
      clip_limit: 10,
      vertical: true,
      language: '',
      layout: 'blur',
      schedule_interval: null,
      schedule_unit: null,
      auto_subtitle: false,
      auto_publish: false,
      next_run_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
