// Import boundary rules of the client (see eslint.config.js at the root).
//
//   app/        → features, api, components, lib       (routes, providers, layout)
//   features/X/ → api, components, lib, X itself       (screens; never another feature)
//   api/        → lib                                  (the domain hooks: the only code that calls the server)
//   components/ → lib                                  (presentational, domain-free)
//   lib/        → lib                                  (domain-free utilities)
//
// Every folder may import @clipshift/shared. Inside features/clips, every part (list/, details/,
// post-wizard/, review/: each subfolder but shared/) shares what it needs through clips/shared/
// and never imports another part.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CLIENT = path.dirname(fileURLToPath(import.meta.url));
const SRC = path.join(CLIENT, 'src');

const subfolders = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const FEATURES = subfolders(path.join(SRC, 'features'));
/** Read from the folder so that a new part of the clips screen is fenced in without editing this file. */
const CLIP_PARTS = subfolders(path.join(SRC, 'features', 'clips')).filter((part) => part !== 'shared');

const src = (...parts) => `./src/${parts.join('/')}`;

const zones = [
  ...FEATURES.map((feature) => ({
    target: src('features', feature),
    from: src('features'),
    except: [`./${feature}`],
    message: 'A feature never imports another feature: move what both need to api/, components/ or lib/.',
  })),
  ...CLIP_PARTS.map((part) => ({
    target: src('features/clips', part),
    from: CLIP_PARTS.filter((other) => other !== part).map((other) => src('features/clips', other)),
    message: 'The parts of the clips screen share code through features/clips/shared/.',
  })),
  { target: src('features/clips/shared'), from: CLIP_PARTS.map((part) => src('features/clips', part)), message: `clips/shared/ is below ${CLIP_PARTS.join(', ')}.` },
  { target: src('features'), from: src('app'), message: 'app/ composes the features, not the reverse.' },
  { target: src('api'), from: [src('app'), src('features'), src('components')], message: 'api/ imports lib/ and @clipshift/shared only.' },
  { target: src('components'), from: [src('app'), src('features'), src('api')], message: 'components/ import lib/ and @clipshift/shared only.' },
  { target: src('lib'), from: [src('app'), src('features'), src('api'), src('components')], message: 'lib/ is domain-free: it imports only lib/ and @clipshift/shared.' },
];

export default [
  {
    files: ['client/src/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: CLIENT, zones }],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@clipshift/server', message: 'The client takes only the AppRouter type from the server.', allowTypeImports: true }],
          patterns: [{ group: ['**/server/**', '**/tests/**'], message: 'The client never reaches into other workspaces by path.' }],
        },
      ],
    },
  },
  {
    // Screens call the server through the domain hooks of api/, never through tRPC directly.
    files: ['client/src/{features,components,lib}/**/*.{ts,tsx}'],
    // Unit tests build the errors tRPC hands to the hooks.
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@/api/trpc', importNames: ['trpc'], message: 'Call the server through a domain hook in api/<domain>.ts.' },
            { name: '@trpc/react-query', message: 'Only api/ uses tRPC.' },
            { name: '@trpc/client', message: 'Only api/ uses tRPC.' },
          ],
        },
      ],
    },
  },
];
