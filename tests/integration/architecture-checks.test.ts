import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ownershipProblems, staleDocLists, tableCrossings, tablesTouched, unusedEngineExports } from '../../scripts/arch-checks.mjs';
import { DOMAIN_ORDER } from '../../server/eslint.rules.js';
import { TABLE_OWNERS } from '../../server/src/domains/ownership.ts';

// The written rules that import zones cannot express (docs/decisions/0030-architecture-checks.md).
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TABLES = new Set(Object.values(TABLE_OWNERS).flat());

/** The crossings of one crafted source, as if it were the file at `file` (relative to the repo). */
const crossingsOf = (file: string, source: string) => tableCrossings(REPO, TABLE_OWNERS, [[file, source]]);

describe('a domain reads and writes only its own tables (server/src/domains/ownership.ts)', () => {
  it('holds for the server today', () => {
    expect(tableCrossings(REPO, TABLE_OWNERS)).toEqual([]);
    expect(ownershipProblems(REPO, TABLE_OWNERS)).toEqual([]);
  });

  it('fails on a Kysely write to another domain\'s table', () => {
    const source = "export const settle = (db: Db, id: string) =>\n  db.updateTable('clips').set({ review_status: 'approved' }).where('id', '=', id).execute();\n";
    expect(crossingsOf('server/src/domains/review/queries.ts', source)).toEqual(['server/src/domains/review/queries.ts:2: review touches clips (owned by clips)']);
  });

  it('fails on a row lock and a join on another domain\'s tables, aliases and arrays included', () => {
    const source = [
      "await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();",
      "await db.selectFrom('webhooks as w').innerJoin('sessions as s', 's.user_id', 'w.user_id').selectAll().execute();",
      "await db.selectFrom(['webhooks', 'logs']).selectAll().execute();",
    ].join('\n');
    expect(crossingsOf('server/src/domains/notifications/queries.ts', source)).toEqual([
      'server/src/domains/notifications/queries.ts:1: notifications touches users (owned by auth)',
      'server/src/domains/notifications/queries.ts:2: notifications touches sessions (owned by auth)',
      'server/src/domains/notifications/queries.ts:3: notifications touches logs (owned by logs)',
    ]);
  });

  it('reads raw SQL in sql`` templates, skipping CTEs, interpolations and comments', () => {
    const source = [
      '// selectFrom(\'users\') in a comment is not a query',
      'const { rows } = await sql<{ n: number }>`',
      '  with previous as (select 1 from logs where user_id = ${userId})',
      '  update logs set level = ${`from ${"users"}`} from previous',
      '  where exists (select 1 from uploads u join clips c on c.id = u.clip_row_id)`.execute(db);',
      'await sql`insert into sessions(id) values (${id})`.execute(db);',
    ].join('\n');
    expect(tablesTouched(source, TABLES)).toEqual([
      { table: 'logs', line: 3 },
      { table: 'logs', line: 4 },
      { table: 'uploads', line: 5 },
      { table: 'clips', line: 5 },
      { table: 'sessions', line: 6 },
    ]);
    expect(crossingsOf('server/src/domains/logs/queries.ts', source)).toEqual([
      'server/src/domains/logs/queries.ts:5: logs touches uploads (owned by publishing)',
      'server/src/domains/logs/queries.ts:5: logs touches clips (owned by clips)',
      'server/src/domains/logs/queries.ts:6: logs touches sessions (owned by auth)',
    ]);
  });

  it('holds the rings to their tables too', () => {
    expect(crossingsOf('server/src/http/routers/probe.ts', "db.deleteFrom('sessions').execute();")).toEqual(['server/src/http/routers/probe.ts:1: http touches sessions (owned by auth)']);
    expect(crossingsOf('server/src/jobs/instances.ts', "db.selectFrom('app_instances').selectAll().execute();")).toEqual([]);
  });

  it('needs an entry for every domain folder', () => {
    const { studio: _studio, ...withoutStudio } = TABLE_OWNERS;
    expect(ownershipProblems(REPO, withoutStudio)).toEqual(['domains/ownership.ts: domain studio has no entry (give it [] if it owns no table)']);
  });
});

describe("an engine's index.ts exports only what other rings use", () => {
  it('holds for every engine and provider', () => {
    expect(unusedEngineExports(REPO)).toEqual([]);
  });
});

describe("README.md's and 0013's lists match the code", () => {
  it('lists today\'s domains, providers, DOMAIN_ORDER and table owners', () => {
    expect(staleDocLists(REPO, { owners: TABLE_OWNERS, domainOrder: DOMAIN_ORDER })).toEqual([]);
  });

  it('fails when the code has a list the docs do not', () => {
    const problems = staleDocLists(REPO, { owners: { ...TABLE_OWNERS, clips: ['clips', 'clip_tags'] }, domainOrder: [...DOMAIN_ORDER].reverse() });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^docs\/decisions\/0013-server-rings\.md: DOMAIN_ORDER are/);
    expect(problems[1]).toMatch(/table owners are .*clips: clips,.* the code has .*clips: clip_tags, clips/);
  });
});
