import { describe, expect, it } from 'vitest';
import { rulesBroken } from '../helpers/lint.ts';

describe('import boundaries (eslint.config.js with server/ and client/ rule files)', () => {
  it('lets a domain use a lower domain through its service', async () => {
    expect(await rulesBroken("import { findClipRow } from '../clips/service.ts';\nexport const use = findClipRow;\n", 'server/src/domains/publishing/probe.ts')).toEqual([]);
  });

  it("refuses a domain reaching into another domain's queries", async () => {
    expect(await rulesBroken("import { selectClipPage } from '../clips/queries.ts';\nexport const use = selectClipPage;\n", 'server/src/domains/publishing/probe.ts')).toContain('import-x/no-restricted-paths');
  });

  it('refuses a domain using a higher one, even through its service', async () => {
    expect(await rulesBroken("import { startRun } from '../downloads/service.ts';\nexport const use = startRun;\n", 'server/src/domains/clips/probe.ts')).toContain('import-x/no-restricted-paths');
  });

  it('refuses an inner ring importing an outer one', async () => {
    expect(await rulesBroken("import { createDeps } from '../../app/deps.ts';\nexport const use = createDeps;\n", 'server/src/domains/clips/probe.ts')).toContain('import-x/no-restricted-paths');
  });

  it('keeps tRPC inside http/', async () => {
    expect(await rulesBroken("import { TRPCError } from '@trpc/server';\nexport const use = TRPCError;\n", 'server/src/domains/clips/probe.ts')).toContain('@typescript-eslint/no-restricted-imports');
  });

  it('refuses a client feature importing another feature', async () => {
    expect(await rulesBroken("import { LogsPage } from '@/features/logs/logs-page';\nexport const use = LogsPage;\n", 'client/src/features/clips/probe.tsx')).toContain('import-x/no-restricted-paths');
  });
});
