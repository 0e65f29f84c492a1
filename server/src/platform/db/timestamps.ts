import pg from 'pg';

/**
 * A timestamptz that came back as PostgreSQL's text of it (inside JSON, say), read by the parser pg
 * reads the column itself with: the same Date, to the millisecond.
 */
export const parseTimestamptz: (text: string) => Date = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ);
