import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/** What every project shares; the global setup is the root's alone, so it runs once per run. */
const shared = {
  // Limits that only a hung test reaches: each wait inside a test has its own, sized for what it
  // waits for (tests/helpers/wait.ts, Playwright's auto-waiting), and a passing test never waits
  // for a limit. A loaded 2-core machine makes a many-step browser test take minutes, not seconds.
  testTimeout: 240_000,
  hookTimeout: 240_000,
  // expect.poll's own default (1 s) is a speed test in disguise: a state the app reaches later on
  // a busy machine failed the test. Polls wait as long as Playwright's auto-waiting does.
  expect: { poll: { timeout: 60_000 } },
  pool: 'forks',
} as const;

/**
 * Test files share their worker process and its modules (no fresh module graph per file): importing
 * the server, its dependencies and the fakes once per worker instead of once per file saves minutes
 * a run. What must start afresh per file does so in the setup file; no test relies on module state.
 */
const ERROR_LOG_SETUP = 'tests/helpers/setup-error-logs.ts';
const sharedModules = { isolate: false, setupFiles: [ERROR_LOG_SETUP] };

export default defineConfig({
  test: {
    globalSetup: ['tests/helpers/global-setup.ts'],
    // More test files at once than cores: most of a file's time is waiting (for the worker to take a
    // job, a page to poll, a child process to answer), not computing, so two lanes left the cores
    // idle most of the run (docs/benchmarks.md, "Test suite").
    maxWorkers: 4,
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
    projects: [
      {
        test: {
          ...shared,
          ...sharedModules,
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
          isolate: false,
          include: ['client/src/**/*.test.ts'],
        },
      },
      {
        // The fault tests start whole app processes, PostgreSQL servers and long renders: one file
        // at a time (two at once would each be a whole deployment), beside the other tests rather
        // than after them, since no test depends on having the machine to itself.
        test: {
          ...shared,
          setupFiles: [ERROR_LOG_SETUP],
          name: 'faults',
          include: ['tests/faults/**/*.test.ts'],
          fileParallelism: false,
        },
      },
    ],
  },
});
