import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/** What every project shares; the global setup is the root's alone, so it runs once per run. */
const shared = {
  testTimeout: 30_000,
  hookTimeout: 120_000,
  pool: 'forks',
} as const;

export default defineConfig({
  test: {
    globalSetup: ['tests/helpers/global-setup.ts'],
    maxWorkers: 2,
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
    projects: [
      {
        test: {
          ...shared,
          name: 'app',
          include: ['tests/**/*.test.ts', 'shared/src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'tests/faults/**'],
        },
      },
      {
        // The browser client's pure rules (wizard, forms, filters, wording), without a browser:
        // the e2e tests still drive the screens that use them.
        resolve: { alias: { '@': fileURLToPath(new URL('./client/src', import.meta.url)) } },
        test: {
          ...shared,
          name: 'client',
          include: ['client/src/**/*.test.ts'],
        },
      },
      {
        // The fault tests start whole app processes, PostgreSQL servers and long renders: they run
        // after everything else, one file at a time, so neither they nor the timing-sensitive
        // browser tests compete for a 2-core machine.
        test: {
          ...shared,
          name: 'faults',
          include: ['tests/faults/**/*.test.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
