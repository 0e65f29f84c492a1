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

  it("refuses http/ reaching past a domain's service.ts", async () => {
    expect(await rulesBroken("import { listQueue } from '../../domains/publishing/schedule.ts';\nexport const use = listQueue;\n", 'server/src/http/routers/probe.ts')).toContain('import-x/no-restricted-paths');
    expect(await rulesBroken("import { listQueue } from '../../domains/publishing/service.ts';\nexport const use = listQueue;\n", 'server/src/http/routers/probe.ts')).toEqual([]);
  });

  it("refuses jobs/ reaching past a domain's service.ts", async () => {
    expect(await rulesBroken("import { mediaRoot } from '../domains/clips/files.ts';\nexport const use = mediaRoot;\n", 'server/src/jobs/probe.ts')).toContain('import-x/no-restricted-paths');
  });

  it("lets only app/ take a domain's job handlers, through jobs/index.ts", async () => {
    expect(await rulesBroken("import { postJob } from '../domains/publishing/jobs/index.ts';\nexport const use = postJob;\n", 'server/src/app/probe.ts')).toEqual([]);
    expect(await rulesBroken("import { postJob } from '../domains/publishing/jobs/post.ts';\nexport const use = postJob;\n", 'server/src/app/probe.ts')).toContain('import-x/no-restricted-paths');
    expect(await rulesBroken("import { postJob } from '../domains/publishing/jobs/index.ts';\nexport const use = postJob;\n", 'server/src/jobs/probe.ts')).toContain('import-x/no-restricted-paths');
  });

  it("refuses code outside an engine importing past its index.ts", async () => {
    expect(await rulesBroken("import { selectableFonts } from '../../engines/media/captions/fonts.ts';\nexport const use = selectableFonts;\n", 'server/src/http/routers/probe.ts')).toContain('import-x/no-restricted-paths');
    expect(await rulesBroken("import { languageCode } from '../../providers/transcription/languages.ts';\nexport const use = languageCode;\n", 'server/src/engines/media/captions/probe.ts')).toContain('import-x/no-restricted-paths');
    expect(await rulesBroken("import { selectableFonts } from '../../engines/media/index.ts';\nexport const use = selectableFonts;\n", 'server/src/http/routers/probe.ts')).toEqual([]);
  });

  it('refuses one part of the clips screen importing another (review/ included)', async () => {
    expect(await rulesBroken("import { YouTubeOptions } from '../post-wizard/youtube-options';\nexport const use = YouTubeOptions;\n", 'client/src/features/clips/review/probe.tsx')).toContain('import-x/no-restricted-paths');
    expect(await rulesBroken("import { YouTubePrivacyChoice } from '../shared/youtube-privacy-choice';\nexport const use = YouTubePrivacyChoice;\n", 'client/src/features/clips/review/probe.tsx')).toEqual([]);
  });

  it('refuses a client feature importing another feature', async () => {
    expect(await rulesBroken("import { LogsPage } from '@/features/logs/logs-page';\nexport const use = LogsPage;\n", 'client/src/features/clips/probe.tsx')).toContain('import-x/no-restricted-paths');
  });
});
