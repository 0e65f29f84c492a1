import { databaseAnswers } from '../../platform/db/database.ts';
import { z } from 'zod';
import { AppError } from '../../platform/errors.ts';
import { probeProcedure, router, validated } from '../trpc.ts';

const healthReport = z.object({
  status: z.literal('ok'),
  database: z.literal('ok'),
  worker: z.enum(['ok', 'disabled']),
});

export const healthRouter = router({
  // probeProcedure: answers (503 when the database is away) whatever the session cookie says.
  check: probeProcedure.output(validated(healthReport)).query(async ({ ctx }) => {
    const worker = ctx.deps.workerRunning() ? ('ok' as const) : ('disabled' as const);
    if (!(await databaseAnswers(ctx.deps.db))) {
      throw new AppError('SERVICE_UNAVAILABLE', 'Database is unreachable', { details: { status: 'error', database: 'error', worker } });
    }
    return { status: 'ok' as const, database: 'ok' as const, worker };
  }),
});
