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
