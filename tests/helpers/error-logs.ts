import { Writable } from 'node:stream';

/**
 * Test apps log nothing to stdout (unless TEST_LOG_LEVEL says so), which once hid unexpected 500s:
 * every line at level error or above is recorded here instead, and a test fails when its app logged
 * one that the test did not declare with expectErrorLogs.
 */

/** pino's numeric levels. */
const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };
const ERROR_LEVEL = LEVELS.error!;

export interface ErrorLogLine {
  level: number;
  msg: string;
  /** The logged error's message, when one was logged. */
  error?: string;
  /** The whole line as pino wrote it. */
  raw: string;
}

export type ErrorLogMatcher = RegExp | ((line: ErrorLogLine) => boolean);

const recorded: ErrorLogLine[] = [];
/** Declared for the whole file (outside a test), and for the test running now. */
const fileAllowances: ErrorLogMatcher[] = [];
let testAllowances: ErrorLogMatcher[] = [];
let inTest = false;

/** "message: error message", what a RegExp of expectErrorLogs is matched against. */
const describeLine = (line: ErrorLogLine) => (line.error ? `${line.msg}: ${line.error}` : line.msg);

function parseLine(raw: string): ErrorLogLine | null {
  try {
    const parsed = JSON.parse(raw) as { level?: unknown; msg?: unknown; err?: { message?: unknown } };
    if (typeof parsed.level !== 'number') return null;
    return {
      level: parsed.level,
      msg: typeof parsed.msg === 'string' ? parsed.msg : '',
      error: typeof parsed.err?.message === 'string' ? parsed.err.message : undefined,
      raw,
    };
  } catch {
    return null;
  }
}

/** The level a test app logs at: TEST_LOG_LEVEL when it asks for more, else error (recorded, not printed). */
export function captureLevel(): string {
  const wanted = process.env.TEST_LOG_LEVEL;
  return wanted && (LEVELS[wanted] ?? Infinity) < ERROR_LEVEL ? wanted : 'error';
}

/**
 * The destination of a test app's logger: records lines at error level and above, and prints the
 * lines TEST_LOG_LEVEL asks for.
 */
export function errorLogDestination(): Writable {
  const printFrom = LEVELS[process.env.TEST_LOG_LEVEL ?? 'silent'] ?? Infinity;
  let pending = '';
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const raw of lines) {
        const line = parseLine(raw);
        if (!line) continue;
        if (line.level >= printFrom) process.stdout.write(`${raw}\n`);
        if (line.level >= ERROR_LEVEL) recorded.push(line);
      }
      done();
    },
  });
}

/**
 * Declares error logs the test expects (a clip that fails on purpose, a fault it injects). Inside a
 * test it holds for that test; outside one (describe, beforeAll) for the rest of the file.
 */
export function expectErrorLogs(matcher: ErrorLogMatcher): void {
  if (inTest) testAllowances.push(matcher);
  else fileAllowances.push(matcher);
}

const matches = (matcher: ErrorLogMatcher, line: ErrorLogLine) => (matcher instanceof RegExp ? matcher.test(describeLine(line)) : matcher(line));

/** The error lines logged since the last check, declared or not (a test may look at what went to stdout). */
export function recordedErrorLogs(): readonly ErrorLogLine[] {
  return [...recorded];
}

/** The error lines logged since the last check that nothing declared, and forgets them all. */
export function takeUnexpectedErrorLogs(): ErrorLogLine[] {
  const allowed = [...fileAllowances, ...testAllowances];
  const lines = recorded.splice(0);
  return lines.filter((line) => !allowed.some((matcher) => matches(matcher, line)));
}

/** Throws, naming each line, when the app logged an error nobody declared. */
export function assertNoUnexpectedErrorLogs(): void {
  const unexpected = takeUnexpectedErrorLogs();
  if (!unexpected.length) return;
  const shown = unexpected.slice(0, 10).map((line) => `  - ${describeLine(line)}\n    ${line.raw.slice(0, 2000)}`);
  throw new Error(
    `The app logged ${unexpected.length} unexpected error line(s); declare expected ones with expectErrorLogs():\n${shown.join('\n')}`,
  );
}

/**
 * Starts a test file afresh: forgets the previous file's declarations and lines. Test files share
 * this module (the suite runs without per-file isolation), so the setup file calls it before each.
 */
export function startTestFile(): void {
  recorded.splice(0);
  fileAllowances.splice(0);
  testAllowances = [];
  inTest = false;
}

/** The test hooks' side: a test starts, or a test ended (its own declarations end with it). */
export function enterTest(): void {
  inTest = true;
}

export function leaveTest(): void {
  inTest = false;
  try {
    assertNoUnexpectedErrorLogs();
  } finally {
    testAllowances = [];
  }
}
