import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.ts';
import type { UserSettingsTable } from '../../platform/db/schema.ts';

/** SQL of the user_settings table, which the settings domain owns. */

export type UserSettingsRow = Selectable<UserSettingsTable>;

export async function findUserSettings(db: DbOrTrx, userId: string): Promise<UserSettingsRow | null> {
  return (await db.selectFrom('user_settings').selectAll().where('user_id', '=', userId).executeTakeFirst()) ?? null;
}

export function upsertUserSettings(db: DbOrTrx, userId: string, values: { whisper_model: string; concurrency: number; updated_at: Date }): Promise<UserSettingsRow> {
  return db
    .insertInto('user_settings')
    .values({ user_id: userId, ...values })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet(values))
    .returningAll()
    .executeTakeFirstOrThrow();
}
