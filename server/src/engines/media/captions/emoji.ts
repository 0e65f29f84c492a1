import { createRequire } from 'node:module';
import path from 'node:path';

/*
 * Colour emoji for captions. libass draws glyph outlines only, so a colour emoji font comes out as
 * nothing; instead each emoji is a picture from Google's Noto Color Emoji set as
 * emoji-datasource-google ships it on npm (64 px PNGs, Apache 2.0; see
 * docs/decisions/0039-caption-look.md), laid over the video where the caption keeps its space.
 */

const requireFromHere = createRequire(import.meta.url);

interface EmojiEntry {
  unified: string;
  non_qualified: string | null;
  image: string;
  has_img_google: boolean;
  skin_variations?: Record<string, { unified: string; image: string; has_img_google: boolean }>;
}

let images: Map<string, string> | undefined;
let imageDir: string | undefined;

/** Code points as the data set names them: upper-case hex joined by "-". */
function keyOf(sequence: string): string {
  return Array.from(sequence, (char) => char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')).join('-');
}

/** Sequence → PNG file name, read once (the list is 1.3 MB) on the first caption with an emoji. */
function imageIndex(): Map<string, string> {
  if (images) return images;
  const entries = requireFromHere('emoji-datasource-google/emoji.json') as EmojiEntry[];
  const index = new Map<string, string>();
  for (const entry of entries) {
    if (!entry.has_img_google) continue;
    index.set(entry.unified, entry.image);
    if (entry.non_qualified) index.set(entry.non_qualified, entry.image);
    for (const variation of Object.values(entry.skin_variations ?? {})) {
      if (variation.has_img_google) index.set(variation.unified, variation.image);
    }
  }
  images = index;
  return index;
}

function imagesFolder(): string {
  imageDir ??= path.join(path.dirname(requireFromHere.resolve('emoji-datasource-google/package.json')), 'img', 'google', '64');
  return imageDir;
}

/** The colour picture of one emoji (a grapheme: joiners, skin tones and selectors included), or null. */
export function emojiImage(emoji: string): string | null {
  const index = imageIndex();
  const key = keyOf(emoji);
  const file = index.get(key) ?? index.get(key.replace(/-FE0F/g, '')) ?? index.get(keyOf(emoji.replace(/\ufe0f/g, '')));
  return file ? path.join(imagesFolder(), file) : null;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The single emoji of a run of them ("🔥🔥" is two pictures; 👍🏽 is one). */
export function splitEmoji(run: string): string[] {
  return Array.from(graphemes.segment(run), (segment) => segment.segment);
}

/**
 * Words that earn an emoji in `auto` mode, by their lower-case letters. Kept small and obvious:
 * an emoji that does not fit is worse than none.
 */
const AUTO_EMOJI: ReadonlyArray<[RegExp, string]> = [
  [/^(fire|insane|crazy|hot|lit|cracked|goated|cooking)$/u, '🔥'],
  [/^(lol|lmao|lmfao|haha+|hahaha+|funny|hilarious|kekw|lul)$/u, '😂'],
  [/^(love|loved|lovely|heart|cute|wholesome)$/u, '❤️'],
  [/^(win|won|winner|victory|champion|champ|gg|first)$/u, '🏆'],
  [/^(dead|died|rip|dying)$/u, '💀'],
  [/^(money|rich|paid|dollars?|cash)$/u, '💰'],
  [/^(wow|omg|what|whoa|shocked|unbelievable)$/u, '😱'],
  [/^(scary|scared|horror|creepy)$/u, '😨'],
  [/^(sad|cry|crying|tears)$/u, '😭'],
  [/^(boom|explode|exploded|explosion|bomb)$/u, '💥'],
  [/^(clutch|goal|perfect|nailed|headshot)$/u, '🎯'],
  [/^(fast|speed|quick|rush)$/u, '⚡'],
  [/^(cool|chill|easy)$/u, '😎'],
  [/^(think|thinking|hmm|wondering)$/u, '🤔'],
];

/** The emoji a word earns in `auto` mode, or null. */
export function autoEmojiFor(word: string): string | null {
  const letters = word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  return AUTO_EMOJI.find(([pattern]) => pattern.test(letters))?.[1] ?? null;
}
