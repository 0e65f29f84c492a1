import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import { isDatabaseUnavailable } from './errors.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;
/** Service functions take either the pool-backed instance or an open transaction. */
export type DbOrTrx = Kysely<Database> | Transaction<Database>;

/** Whether the database answers a trivial query right now (health, waiting out an outage). */
export async function databaseAnswers(db: DbOrTrx): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

export interface DatabaseHandle {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

interface DatabaseOptions {
  /**
   * Connections wait (retrying with backoff) while the database is unreachable, instead of failing
   * at once, until this signal aborts. For job workers: a task or graphile-worker's own bookkeeping
   * then resumes after an outage rather than failing half-way. Web requests must not wait (they
   * answer 503 at once), so the web side uses a pool without it.
   */
  waitWhileUnreachable?: AbortSignal;
  /** Told once per outage that connections are waiting. */
  onWaiting?: (error: unknown) => void;
}

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

const FIRST_RETRY_MS = 200;
/** Short enough that work resumes within two seconds of the database coming back. */
const MAX_RETRY_MS = 2_000;

/** A pg pool whose connect() (and so query(), Kysely and graphile-worker) waits out outages. */
class WaitingPool extends pg.Pool {
  private waiting = false;
  constructor(
    config: pg.PoolConfig,
    private readonly patience: Required<DatabaseOptions>,
  ) {
    super(config);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const connecting = this.connectWaiting();
    if (!callback) return connecting;
    connecting.then(
      (client) => callback(undefined, client, (release?: unknown) => client.release(release as Error | boolean | undefined)),
      (error: Error) => callback(error, undefined, () => undefined),
    );
  }

  private async connectWaiting(): Promise<pg.PoolClient> {
    const { waitWhileUnreachable: signal, onWaiting } = this.patience;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const client = await super.connect();
        this.waiting = false;
        return client;
      } catch (error) {
        if (!isDatabaseUnavailable(error) || signal.aborted || this.ending) throw error;
        if (!this.waiting) onWaiting(error);
        this.waiting = true;
        const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 1.5 ** attempt);
        await sleep(delay, undefined, { signal }).catch(() => {
          throw error;
        });
      }
    }
  }
}

export function createDatabase(connectionString: string, max = 10, options: DatabaseOptions = {}): DatabaseHandle {
  const config: pg.PoolConfig = { connectionString, max, application_name: 'clipshift' };
  const pool = options.waitWhileUnreachable
    ? new WaitingPool(config, { waitWhileUnreachable: options.waitWhileUnreachable, onWaiting: options.onWaiting ?? (() => undefined) })
    : new pg.Pool(config);
  // An idle client losing its connection (database restart) must not crash the process;
  // the pool replaces it and the next query reports any lasting problem.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    pool,
    close: async () => {
      await db.destroy();
      // Kysely ends the pool only if it ever used it; graphile-worker may have been its only user.
      if (!pool.ending) await pool.end();
    },
  };
}
