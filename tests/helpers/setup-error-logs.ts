import { afterAll, afterEach, beforeEach } from 'vitest';
import { assertNoUnexpectedErrorLogs, enterTest, leaveTest, startTestFile } from './error-logs.ts';

/*
 * A setup file (vitest.config.ts): run before every test file, so every test, and each file's hooks
 * before its first and after its last test, are checked for error logs nobody declared.
 */
startTestFile();
beforeEach(enterTest);
afterEach(leaveTest);
afterAll(assertNoUnexpectedErrorLogs);
