// `npm run build:server`: bundles the server (and the TypeScript of @clipshift/shared) into
// server/dist/*.js, run with plain `node` in production (docs/decisions/0018-production-build.md).
// npm packages stay external: they are installed with `npm ci --omit=dev` next to the bundle.
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'server/dist');

const dependencies = (workspace) => Object.keys(JSON.parse(readFileSync(path.join(root, workspace, 'package.json'), 'utf8')).dependencies ?? {});
const WORKSPACE_PACKAGES = new Set(['@clipshift/shared']);
// A package's subpaths (pg/lib/…, @trpc/server/adapters/…) must stay external too.
const external = [...new Set([...dependencies('server'), ...dependencies('shared')])]
  .filter((name) => !WORKSPACE_PACKAGES.has(name))
  .flatMap((name) => [name, `${name}/*`]);

/**
 * What a production folder holds besides node_modules: the bundle, what it reads at run time
 * (resolved from APP_ROOT, server/src/platform/paths.ts) and the manifests `npm install --omit=dev`
 * needs (the workspace manifests because the root one names them). The Dockerfile copies the same.
 */
export const PRODUCTION_FILES = ['package.json', 'package-lock.json', 'shared/package.json', 'server/package.json', 'client/package.json', 'server/dist', 'server/assets', 'migrations', 'client/dist'];

export async function buildServer() {
  await rm(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { main: 'server/src/app/main.ts', 'migrate-cli': 'server/src/app/migrate-cli.ts' },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    external,
    sourcemap: true,
    // Stack traces in logs keep function names; the bundle is read by node, not shipped to browsers.
    minify: false,
    logLevel: 'warning',
    metafile: true,
  });
  const bundled = Object.keys(result.metafile.inputs).filter((input) => input.includes('node_modules/') && !input.includes('/shared/'));
  if (bundled.length > 0) throw new Error(`npm packages were bundled instead of left external (add them to server/package.json dependencies): ${bundled.join(', ')}`);
  return outdir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer();
  console.log(`Server bundled into ${path.relative(root, outdir)}/`);
}
