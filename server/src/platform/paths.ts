import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The folder holding migrations/, server/assets/ and client/dist/. Every file that reads those at
 * run time resolves them from here, because the production bundle (server/dist/*.js, see
 * docs/decisions/0018-production-build.md) flattens the source tree: a path relative to each
 * source file would point elsewhere once bundled. This file is server/src/platform/paths.ts in
 * the source tree and inlined into server/dist/<entry>.js in the bundle.
 */
export const APP_ROOT = path.basename(here) === 'dist' ? path.resolve(here, '../..') : path.resolve(here, '../../..');

export const appPath = (...parts: string[]) => path.join(APP_ROOT, ...parts);
