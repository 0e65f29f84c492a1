import { listLogsInput, logEntry } from '@clipshift/shared';
import { z } from 'zod';
import { authedProcedure, router, validated } from '../trpc.ts';
import { listLogs } from '../../domains/logs/service.ts';

export const logsRouter = router({
  list: authedProcedure
    .input(listLogsInput)
    .output(validated(z.array(logEntry)))
    .query(({ ctx, input }) => listLogs(ctx.deps.db, ctx.user, input)),
});
