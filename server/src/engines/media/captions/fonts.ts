import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { appPath } from '../../../platform/paths.ts';
import { fullUnicodeRanges, preferFullUnicodeCmap } from './cmap.ts';

/*
 * The fonts captions are drawn with (SIL OFL), handed to ffmpeg's subtitles filter as fontsdir so
 * captions render the same on every machine, whatever fonts the host has. Bold weights only, since
 * captions are bold. Small fonts are committed under server/assets/fonts; large ones (Korean is
 * 6 MB) come from their npm package in node_modules. libass reads a single fontsdir, so
 * captionFontsDir() joins both sources in one folder of symbolic links. Thai, Hebrew and other
 * scripts fall back to the host's fonts (see server/assets/fonts/README.md and
 * docs/decisions/0015-caption-fonts.md).
 */

/** Absolute path of the fonts committed with the app (not all caption fonts: see captionFontsDir). */
export const fontsDir = appPath('server/assets/fonts');

export type CaptionScript = 'latin' | 'cjk' | 'korean' | 'arabic' | 'devanagari';

/** A text font per script, plus the emoji font that draws emoji inside any of them. */
export type CaptionFontRole = CaptionScript | 'emoji';

type FontSource = { bundled: string } | { npmPackage: string; file: string };

export interface CaptionFont {
  /** The family name the file declares: what libass matches the ASS Fontname against. */
  family: string;
  /** ISO 15924 codes (Intl.DisplayNames with type 'script' names them in the user's language). */
  scripts: readonly string[];
  source: FontSource;
  /** Its glyphs lie above U+FFFF: the folder gets a copy old libass can read them from (see cmap.ts). */
  supplementaryPlanes?: true;
}

/** Every caption font, in the order GET /api/fonts lists them. */
export const CAPTION_FONTS: Readonly<Record<CaptionFontRole, CaptionFont>> = {
  // Latin, Greek, Cyrillic and Vietnamese.
  latin: { family: 'Noto Sans', scripts: ['Latn', 'Grek', 'Cyrl'], source: { bundled: 'NotoSans-Bold.ttf' } },
  // Simplified and traditional Chinese, Japanese kana and kanji (one font covers all three).
  cjk: { family: 'Noto Sans SC', scripts: ['Hans', 'Hant', 'Jpan'], source: { bundled: 'NotoSansSC-Bold.ttf' } },
  // Hangul (and the Hanja Korean text mixes in).
  korean: {
    family: 'Noto Sans KR',
    scripts: ['Kore'],
    source: { npmPackage: '@expo-google-fonts/noto-sans-kr', file: '700Bold/NotoSansKR_700Bold.ttf' },
  },
  // Arabic, Persian, Urdu.
  arabic: { family: 'Noto Sans Arabic', scripts: ['Arab'], source: { bundled: 'NotoSansArabic-Bold.ttf' } },
  // Hindi, Marathi, Nepali.
  devanagari: { family: 'Noto Sans Devanagari', scripts: ['Deva'], source: { bundled: 'NotoSansDevanagari-Bold.ttf' } },
  // Monochrome: libass draws outlines only, so a colour emoji font would come out as nothing.
  emoji: {
    family: 'Noto Emoji',
    scripts: ['Zsye'],
    source: { npmPackage: '@expo-google-fonts/noto-emoji', file: '700Bold/NotoEmoji_700Bold.ttf' },
    supplementaryPlanes: true,
  },
};

export interface FontListing {
  family: string;
  scripts: string[];
}

/**
 * The fonts a caption style may name (GET /api/fonts). The emoji font is left out: it has no
 * letters, and captions switch to it for emoji whatever font the style names.
 */
export function selectableFonts(): FontListing[] {
  return Object.entries(CAPTION_FONTS)
    .filter(([role]) => role !== 'emoji')
    .map(([, font]) => ({ family: font.family, scripts: [...font.scripts] }));
}

/** Whether a caption style may name this family. */
export function isCaptionFont(family: string): boolean {
  return selectableFonts().some((font) => font.family === family);
}

const SCRIPTS: readonly CaptionScript[] = ['latin', 'cjk', 'korean', 'arabic', 'devanagari'];

export const FONT_FAMILIES: Readonly<Record<CaptionScript, string>> = Object.fromEntries(
  SCRIPTS.map((script) => [script, CAPTION_FONTS[script].family]),
) as Record<CaptionScript, string>;

export const EMOJI_FONT_FAMILY = CAPTION_FONTS.emoji.family;

/** The script a bundled caption font is made for; null for a family the app does not bundle. */
export function scriptOfFont(family: string): CaptionScript | null {
  return SCRIPTS.find((script) => FONT_FAMILIES[script] === family) ?? null;
}

/** The files committed in fontsDir, by role (the others come from npm packages). */
export const FONT_FILES: Readonly<Partial<Record<CaptionFontRole, string>>> = Object.fromEntries(
  Object.entries(CAPTION_FONTS).flatMap(([role, font]) => ('bundled' in font.source ? [[role, font.source.bundled]] : [])),
);

const requireFromHere = createRequire(import.meta.url);

/** Absolute path of a caption font's file, wherever it comes from. */
export function fontFilePath(font: CaptionFont): string {
  if ('bundled' in font.source) return path.join(fontsDir, font.source.bundled);
  const packageDir = path.dirname(requireFromHere.resolve(`${font.source.npmPackage}/package.json`));
  return path.join(packageDir, font.source.file);
}

const preparedDirs = new Map<string, string>();

/**
 * The folder to hand libass as fontsdir: a link to every caption font (a patched copy where
 * supplementaryPlanes says so). Named after the fonts' paths, sizes and times, so every process
 * of one installation shares it, two installations never mix and an updated package gets a new
 * one; made complete under a temporary name and renamed, so a concurrent process never sees half
 * of it. Checked on each call because /tmp cleaners may remove it while the server runs.
 */
export async function captionFontsDir(root = os.tmpdir()): Promise<string> {
  const fonts = Object.values(CAPTION_FONTS).map((font) => ({ font, file: fontFilePath(font) }));
  const names = fonts.map(({ file }) => path.basename(file));
  const known = preparedDirs.get(root);
  if (known && (await holdsAll(known, names))) return known;
  const dir = path.join(root, `clipshift-fonts-${await fontsKey(fonts.map(({ file }) => file))}`);
  if (await holdsAll(dir, names)) return remember(root, dir);
  const partial = `${dir}.${randomUUID()}.tmp`;
  await mkdir(partial, { recursive: true });
  try {
    for (const { font, file } of fonts) await placeFont(font, file, path.join(partial, path.basename(file)));
    await replaceUnlessComplete(partial, dir, names);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  return remember(root, dir);
}

function remember(root: string, dir: string): string {
  preparedDirs.set(root, dir);
  return dir;
}

const FOLDER_FORMAT = 'links+cmap-v1';

async function fontsKey(files: readonly string[]): Promise<string> {
  const hash = createHash('sha256').update(FOLDER_FORMAT);
  for (const file of files) {
    const { size, mtimeMs } = await stat(file);
    hash.update(`\n${file}\t${size}\t${mtimeMs}`);
  }
  return hash.digest('hex').slice(0, 16);
}

async function placeFont(font: CaptionFont, file: string, target: string): Promise<void> {
  if (font.supplementaryPlanes) await writeFile(target, preferFullUnicodeCmap(await readFile(file)));
  else await symlink(file, target);
}

/** Moves `partial` to `dir`; a complete `dir` another process put there first is kept as it is. */
async function replaceUnlessComplete(partial: string, dir: string, names: readonly string[]): Promise<void> {
  try {
    await rename(partial, dir);
  } catch (error) {
    if (await holdsAll(dir, names)) return;
    if (!isCode(error, 'ENOTEMPTY') && !isCode(error, 'EEXIST')) throw error;
    // A stale folder from other fonts or a half-cleaned /tmp: replace it.
    await rm(dir, { recursive: true, force: true });
    await rename(partial, dir);
  }
}

function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}

async function holdsAll(dir: string, names: readonly string[]): Promise<boolean> {
  try {
    const present = new Set(await readdir(dir));
    return names.every((name) => present.has(name));
  } catch {
    return false;
  }
}

const SCRIPT_PATTERNS: ReadonlyArray<[CaptionScript, RegExp]> = [
  ['cjk', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u],
  ['korean', /\p{Script=Hangul}/u],
  ['arabic', /\p{Script=Arabic}/u],
  ['devanagari', /\p{Script=Devanagari}/u],
];

/** The script most of the text's letters belong to; text without letters counts as Latin. */
export function dominantScript(text: string): CaptionScript {
  const counts = new Map<CaptionScript, number>();
  // Emoji variation selectors are marks: they would count as Latin letters.
  for (const char of withoutEmoji(text)) {
    if (!/[\p{L}\p{M}\p{N}]/u.test(char) && !SCRIPT_PATTERNS[0]![1].test(char)) continue;
    const script = SCRIPT_PATTERNS.find(([, pattern]) => pattern.test(char))?.[0] ?? 'latin';
    counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  let best: CaptionScript = 'latin';
  let bestCount = 0;
  for (const [script, count] of counts) {
    if (count > bestCount) {
      best = script;
      bestCount = count;
    }
  }
  return best;
}

/** The script of a single word, or null when it has no letters (digits, punctuation). */
export function wordScript(text: string): CaptionScript | null {
  const letters = withoutEmoji(text);
  return /[\p{L}\p{M}]/u.test(letters) || SCRIPT_PATTERNS[0]![1].test(letters) ? dominantScript(letters) : null;
}

function withoutEmoji(text: string): string {
  return emojiRuns(text)
    .filter((run) => !run.emoji)
    .map((run) => run.text)
    .join('');
}

export function fontForText(text: string): string {
  return FONT_FAMILIES[dominantScript(text)];
}

/** Whether the text is written right to left (its base direction must then be detected). */
export function isRightToLeft(text: string): boolean {
  return /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u.test(text);
}

/**
 * Emoji and what joins them into one picture (skin tones, zero-width joiners, variation selectors,
 * flag tags). ©, ® and ™ count too: the emoji font draws them as well, so nothing is lost.
 */
const EMOJI_RUN = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\u200d\ufe0e\ufe0f\u20e3\u{e0020}-\u{e007f}]+/gu;

/** Splits text into emoji and non-emoji runs, in order. */
export function emojiRuns(text: string): Array<{ text: string; emoji: boolean }> {
  const runs: Array<{ text: string; emoji: boolean }> = [];
  let last = 0;
  for (const match of text.matchAll(EMOJI_RUN)) {
    // A joiner or selector alone draws nothing; only a run with a picture in it needs the emoji font.
    if (!/[\p{Extended_Pictographic}\p{Regional_Indicator}]/u.test(match[0])) continue;
    if (match.index > last) runs.push({ text: text.slice(last, match.index), emoji: false });
    runs.push({ text: match[0], emoji: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) runs.push({ text: text.slice(last), emoji: false });
  return runs;
}

let emojiCoverage: Array<[number, number]> | undefined;

/**
 * Whether the emoji font draws this code point. Read once, synchronously, on the first caption with
 * an emoji (under 1 MB): the ASS writer is synchronous, and emoji newer than the font must be left
 * out rather than drawn as boxes.
 */
export function emojiFontHas(codePoint: number): boolean {
  emojiCoverage ??= fullUnicodeRanges(readFileSync(fontFilePath(CAPTION_FONTS.emoji)));
  let low = 0;
  let high = emojiCoverage.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [first, last] = emojiCoverage[middle]!;
    if (codePoint < first) high = middle - 1;
    else if (codePoint > last) low = middle + 1;
    else return true;
  }
  return false;
}
