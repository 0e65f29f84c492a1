import { sql } from 'kysely';
import type { TokenScope } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';

/** SQL of the table the tokens domain owns: api_tokens. */

// The secret's hash stays out of every list: only verification reads it.
const PUBLIC_COLUMNS = ['id', 'name', 'scopes', 'created_at', 'expires_at', 'last_used_at'] as const;

export function selectTokens(db: DbOrTrx, userId: string) {
  return db.selectFrom('api_tokens').select(PUBLIC_COLUMNS).where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').execute();
}

export type TokenColumns = Awaited<ReturnType<typeof selectTokens>>[number];

export async function countTokens(db: DbOrTrx, userId: string): Promise<number> {
  const row = await db.selectFrom('api_tokens').select((eb) => eb.fn.countAll<string>().as('count')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Serialises token creation for one user (the per-user cap), without touching users (auth's table). */
export async function lockUserTokens(db: DbOrTrx, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`api_tokens:${userId}`}))`.execute(db);
}

export function insertToken(db: DbOrTrx, values: { user_id: string; name: string; lookup: string; secret_hash: Buffer; scopes: TokenScope[]; expires_at: Date | null }) {
  return db
    .insertInto('api_tokens')
    .values({ ...values, scopes: sql<TokenScope[]>`${values.scopes}::text[]` })
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function deleteTokenRow(db: DbOrTrx, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('api_tokens').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** What a request's token is checked against; `stale`: last_used_at is due to be written again. */
export function selectTokenByLookup(db: DbOrTrx, lookup: string, staleAfterSeconds: number) {
  return db
    .selectFrom('api_tokens')
    .select(['id', 'user_id', 'secret_hash', 'scopes'])
    .select(sql<boolean>`expires_at is not null and expires_at <= now()`.as('expired'))
    .select(sql<boolean>`last_used_at is null or last_used_at <= now() - make_interval(secs => ${staleAfterSeconds})`.as('stale'))
    .where('lookup', '=', lookup)
    .executeTakeFirst();
}

/** Writes last_used_at, unless another request of the token wrote it within the interval. */
export async function touchToken(db: DbOrTrx, id: string, staleAfterSeconds: number): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ last_used_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', sql<Date>`now() - make_interval(secs => ${staleAfterSeconds})`)]))
    .execute();
}
