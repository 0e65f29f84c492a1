// Import boundary rules of the server (see eslint.config.js at the root and
// docs/decisions/0013-server-rings.md).
//
//   app/       → http, jobs, domains, engines, platform   (composition roots: main, http app, job list, housekeeping)
//   http/      → domains, engines, platform               (tRPC, REST, the one AppError mapping; routers are transport)
//   jobs/      → domains, engines, platform               (worker supervision and recovery)
//   domains/   → engines, platform                        (each domain: service.ts, queries.ts, jobs/)
//   engines/   → platform                                 (media, providers, description scoring)
//   platform/  → platform                                 (db, env, logger, AppError, queue, crypto…)
//
// Every ring may import @clipshift/shared. Only http/ imports @trpc/server. A domain imports
// another only through its service.ts (or index.ts), and only downward in DOMAIN_ORDER.
// The rings above reach a domain only through its public face (docs/decisions/0030): http/ and
// jobs/ through service.ts, app/ also through jobs/index.ts (the domain's job handlers, which the
// job list wires); domains/deps.ts (the shared AppDeps type) is open to all. Code outside an
// engine imports only its index.ts.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER = path.dirname(fileURLToPath(import.meta.url));
const src = (...parts) => `./src/${parts.join('/')}`;
const abs = (...parts) => path.join(SERVER, 'src', ...parts);
const subfoldersWithIndex = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, 'index.ts')))
    .map((entry) => entry.name);
/** One file as a glob: the rule takes only glob exceptions where `from` is a glob. */
const fileGlob = (...parts) => abs(...parts).replace(/\.ts$/, '.@(ts)');

/**
 * The domains, lowest first: a domain may use the services of those before it, never of those
 * after it. Reactions upward (a saved clip auto-publishes) are jobs, not imports.
 * streamers lists linked accounts (so it sits above publishing); studio combines a clip's and its
 * streamer's settings for subtitles and downloads, which render; downloads calls streamers.
 * notifications sits low so that any domain that knows an event (runs, posts, accounts) can raise it.
 * review approves clips into publishing; a run holds clips for it through the clip's own state.
 */
export const DOMAIN_ORDER = ['logs', 'settings', 'notifications', 'twitch', 'invites', 'auth', 'tokens', 'guests', 'clips', 'descriptions', 'publishing', 'streamers', 'review', 'studio', 'subtitles', 'downloads', 'moments'];

const RINGS = ['app', 'http', 'jobs', 'domains', 'engines', 'platform'];
/** What each ring may not import: every ring above it (http and jobs are siblings that never meet). */
const FORBIDDEN = {
  http: ['app', 'jobs'],
  jobs: ['app', 'http'],
  domains: ['app', 'http', 'jobs'],
  engines: ['app', 'http', 'jobs', 'domains'],
  platform: ['app', 'http', 'jobs', 'domains', 'engines'],
};

const ringZones = Object.entries(FORBIDDEN).map(([ring, above]) => ({
  target: src(ring),
  from: above.map((other) => src(other)),
  message: `${ring}/ is below ${above.join(', ')}: imports point inward only (app → http/jobs → domains → engines → platform).`,
}));

const domainZones = DOMAIN_ORDER.map((domain, index) => ({
  target: src('domains', domain),
  from: abs('domains', '**'),
  except: [
    abs('domains', domain, '**'),
    fileGlob('domains', 'deps.ts'),
    ...DOMAIN_ORDER.slice(0, index).map((lower) => abs('domains', lower, '@(service|index).ts')),
  ],
  message: `A domain imports another only through its service.ts, and only one below it in DOMAIN_ORDER (${DOMAIN_ORDER.join(' ← ')}).`,
}));

/** The files of a domain that the rings above may import: its public face. */
const PUBLIC_FACE = {
  http: ['service.ts'],
  jobs: ['service.ts'],
  app: ['service.ts', 'jobs/index.ts'],
};

const publicFaceZones = Object.entries(PUBLIC_FACE).map(([ring, entries]) => ({
  target: src(ring),
  from: abs('domains', '**'),
  except: [fileGlob('domains', 'deps.ts'), ...entries.map((entry) => fileGlob('domains', '*', entry))],
  message: `${ring}/ reaches a domain only through its public face (${entries.join(' or ')}): export what it needs from there.`,
}));

/**
 * The engines with a public entry (engines/<name>/index.ts, engines/providers/<name>/index.ts):
 * code outside an engine imports only its index.ts, which exports only what that code uses
 * (tests/integration/architecture-checks.test.ts). providers/http/ is the providers' own plumbing.
 */
const ENGINES = [
  ...subfoldersWithIndex(abs('engines')).map((name) => ['engines', name]),
  ...subfoldersWithIndex(abs('engines', 'providers')).map((name) => ['engines', 'providers', name]),
];

const engineZones = ENGINES.map((engine) => ({
  target: [...RINGS.filter((ring) => ring !== 'engines').map((ring) => src(ring)), ...ENGINES.filter((other) => other !== engine).map((other) => src(...other))],
  from: src(...engine),
  except: ['./index.ts'],
  message: `Outside ${engine.join('/')}/, import only its index.ts: export what is needed from there.`,
}));

if (RINGS.length !== Object.keys(FORBIDDEN).length + 1) throw new Error('every ring but app/ needs its FORBIDDEN entry');

export default [
  {
    files: ['server/src/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: SERVER, zones: [...ringZones, ...domainZones, ...publicFaceZones, ...engineZones] }],
    },
  },
  {
    // tRPC is transport: domains throw platform AppErrors and http/errors.ts maps them.
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/http/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@trpc/*', '@trpc/*/**'], message: 'Only http/ imports tRPC: throw an AppError (platform/errors.ts) instead.' }] },
      ],
    },
  },
];
