import { sql, type Selectable } from 'kysely';
import type { Db, DbOrTrx } from '../platform/db/database.ts';
import type { AppInstancesTable } from '../platform/db/schema.ts';
import type { Logger } from '../platform/logger.ts';
import { HEARTBEAT_STALE_MS, pidIsGone, type WorkerIdentity } from '../platform/identity.ts';
import { RECOVER_JOB } from '../platform/queue/contracts.ts';
import { enqueue } from '../platform/queue/queue.ts';

type InstanceRow = Selectable<AppInstancesTable>;

/** How often a process reports that it is alive (well inside HEARTBEAT_STALE_MS). */
const INSTANCE_HEARTBEAT_MS = 5_000;

/** Records this process (again, if a recovery elsewhere had removed it), with its worker pools. */
export async function registerInstance(db: DbOrTrx, self: WorkerIdentity, poolIds: readonly string[] = []): Promise<void> {
  await db
    .insertInto('app_instances')
    .values({ id: self.instance, host: self.host, pid: self.pid, worker_pool_ids: [...poolIds] })
    .onConflict((conflict) =>
      conflict.column('id').doUpdateSet({
        heartbeat_at: new Date(),
        worker_pool_ids: sql<string[]>`array(select distinct unnest(app_instances.worker_pool_ids || excluded.worker_pool_ids))`,
      }),
    )
    .execute();
}

/** Adds a graphile-worker pool id (the value its jobs are locked with) to this process's row. */
export function recordWorkerPool(db: DbOrTrx, self: WorkerIdentity, poolId: string): Promise<void> {
  return registerInstance(db, self, [poolId]);
}

/** A clean exit: nothing of this process is left for recovery to judge. */
export async function unregisterInstance(db: DbOrTrx, self: WorkerIdentity): Promise<void> {
  await db.deleteFrom('app_instances').where('id', '=', self.instance).execute();
}

/**
 * Whether a registered process is dead, seen from `self`: its pid is gone on this host, or (when
 * stale verdicts are trusted, see ownerIsGone) it has not reported for HEARTBEAT_STALE_MS.
 */
export function instanceIsDead(row: InstanceRow, self: WorkerIdentity, now: number, staleVerdicts: boolean): boolean {
  if (row.id === self.instance) return false;
  if (pidIsGone(row.host, row.pid, self)) return true;
  return staleVerdicts && now - row.heartbeat_at.getTime() > HEARTBEAT_STALE_MS;
}

/**
 * Registered processes on this host whose pid is gone: a worker beside us died (killed, crashed).
 * Seen here within a heartbeat, instead of at the recovery cron's next minute.
 */
async function deadNeighbours(db: DbOrTrx, self: WorkerIdentity): Promise<string[]> {
  const rows = await db.selectFrom('app_instances').select(['id', 'host', 'pid']).where('host', '=', self.host).where('id', '!=', self.instance).execute();
  return rows.filter((row) => pidIsGone(row.host, row.pid, self)).map((row) => row.id);
}

interface InstanceHeartbeat {
  /** How long this process has been reporting without a failure (0 while the database is away). */
  healthyForMs(): number;
  stop(): Promise<void>;
}

/**
 * Registers the process and reports every INSTANCE_HEARTBEAT_MS. A failed report (database
 * away) is logged once per outage and tried again on the next tick; reports never overlap.
 */
export async function startInstanceHeartbeat(db: Db, self: WorkerIdentity, logger: Logger, poolIds: () => readonly string[]): Promise<InstanceHeartbeat> {
  await registerInstance(db, self, poolIds());
  let healthySince = Date.now();
  let failing = false;
  let inFlight: Promise<void> | null = null;
  /** Dead neighbours whose recovery this process already asked for (recovery removes their rows). */
  const reported = new Set<string>();
  const beat = async () => {
    try {
      // The pools go along every time: one whose first recording failed is known within a beat.
      await registerInstance(db, self, poolIds());
      const fresh = (await deadNeighbours(db, self)).filter((id) => !reported.has(id));
      if (fresh.length) {
        for (const id of fresh) reported.add(id);
        await enqueue(db, RECOVER_JOB, {});
      }
      if (failing) logger.info('the database answers again');
      if (failing) healthySince = Date.now();
      failing = false;
    } catch (error) {
      if (!failing) logger.warn({ err: error }, 'cannot reach the database; retrying');
      failing = true;
    }
  };
  const timer = setInterval(() => {
    inFlight ??= beat().finally(() => {
      inFlight = null;
    });
  }, INSTANCE_HEARTBEAT_MS);
  return {
    healthyForMs: () => (failing ? 0 : Date.now() - healthySince),
    stop: async () => {
      clearInterval(timer);
      await inFlight;
    },
  };
}
