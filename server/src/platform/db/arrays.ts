import { sql, type RawBuilder } from 'kysely';

/**
 * `= any($1::uuid[])`: a whole list of ids as one parameter. An `in` list binds and compiles one
 * parameter per id, and its statement text changes with the list's length.
 */
export function anyUuid(ids: readonly string[]): RawBuilder<string> {
  return sql<string>`any(${[...ids]}::uuid[])`;
}
