/*
 * How long a test waits for real work before it calls the work hung. A passing test never waits for
 * a limit: it moves on at the event it waits for (tests/helpers/wait.ts, Playwright's auto-waiting).
 * So each limit is sized for what it covers on the slowest machine the suite must pass on — 2 cores
 * running two test files at once, each with its browser, ffmpeg and PostgreSQL, under a stress load
 * besides — and scales with the amount of work, instead of one figure for everything.
 */

/** One render of a short test clip: its download, probe, 1080x1920 encode and thumbnail. */
export const RENDER_LIMIT_MS = 90_000;

/** A wait that covers `renders` clip renders (a download run of that many clips, re-renders one after another). */
export function renderLimitMs(renders = 1): number {
  return renders * RENDER_LIMIT_MS;
}

/** The limit of a test that waits for `renders` renders, with a minute for its other steps. */
export function renderTestLimitMs(renders = 1): number {
  return renderLimitMs(renders) + 60_000;
}
