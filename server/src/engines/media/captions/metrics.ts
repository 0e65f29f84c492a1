import { readFileSync } from 'node:fs';

/*
 * Advance widths of the caption fonts, read from their files, so the ASS writer knows where libass
 * puts each glyph: colour emoji are drawn as pictures over the space their (transparent) glyph
 * keeps in the line, and that needs the x of the glyph. libass sizes a font so that its Windows
 * ascender + descender (OS/2 usWinAscent + usWinDescent) equal the font size, and advances glyphs
 * by their hmtx widths; kerning moves a glyph by a pixel or two at caption sizes, which the picture
 * of an emoji covers.
 */

export interface FontMetrics {
  /** Font units per size unit: a glyph of `advance` units is advance * size / unitsPerSize px wide. */
  unitsPerSize: number;
  /** Share of the size above the baseline (the rest is below). */
  ascentShare: number;
  /** Advance width in font units; 0 for a character the font lacks. */
  advance(codePoint: number): number;
}

interface Tables {
  [tag: string]: number;
}

function tablesOf(font: Buffer): Tables {
  const tables: Tables = {};
  const count = font.readUInt16BE(4);
  for (let index = 0; index < count; index++) {
    const record = 12 + index * 16;
    tables[font.toString('latin1', record, record + 4)] = font.readUInt32BE(record + 8);
  }
  return tables;
}

/** Character → glyph id through the best Unicode map (format 12, else format 4). */
function glyphMap(font: Buffer, cmap: number): (codePoint: number) => number {
  const count = font.readUInt16BE(cmap + 2);
  const subtables = Array.from({ length: count }, (_, index) => {
    const record = cmap + 4 + index * 8;
    const offset = cmap + font.readUInt32BE(record + 4);
    return { platform: font.readUInt16BE(record), encoding: font.readUInt16BE(record + 2), offset, format: font.readUInt16BE(offset) };
  });
  const full = subtables.find((table) => table.format === 12 && (table.platform === 3 || table.platform === 0));
  if (full) return format12(font, full.offset);
  const bmp = subtables.find((table) => table.format === 4 && (table.platform === 3 || table.platform === 0));
  return bmp ? format4(font, bmp.offset) : () => 0;
}

function format12(font: Buffer, offset: number): (codePoint: number) => number {
  const groups = font.readUInt32BE(offset + 12);
  return (codePoint) => {
    let low = 0;
    let high = groups - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const group = offset + 16 + middle * 12;
      const first = font.readUInt32BE(group);
      const last = font.readUInt32BE(group + 4);
      if (codePoint < first) high = middle - 1;
      else if (codePoint > last) low = middle + 1;
      else return font.readUInt32BE(group + 8) + codePoint - first;
    }
    return 0;
  };
}

function format4(font: Buffer, offset: number): (codePoint: number) => number {
  const segments = font.readUInt16BE(offset + 6) / 2;
  const ends = offset + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  return (codePoint) => {
    if (codePoint > 0xffff) return 0;
    for (let segment = 0; segment < segments; segment++) {
      if (codePoint > font.readUInt16BE(ends + segment * 2)) continue;
      const start = font.readUInt16BE(starts + segment * 2);
      if (codePoint < start) return 0;
      const delta = font.readInt16BE(deltas + segment * 2);
      const rangeAt = rangeOffsets + segment * 2;
      const range = font.readUInt16BE(rangeAt);
      if (range === 0) return (codePoint + delta) & 0xffff;
      const glyph = font.readUInt16BE(rangeAt + range + (codePoint - start) * 2);
      return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
    }
    return 0;
  };
}

/** The metrics libass lays text out with, read from a TrueType/OpenType font file's bytes. */
export function parseFontMetrics(font: Buffer): FontMetrics {
  const tables = tablesOf(font);
  const os2 = tables['OS/2'];
  const hhea = tables.hhea!;
  const winAscent = os2 === undefined ? font.readInt16BE(hhea + 4) : font.readUInt16BE(os2 + 74);
  const winDescent = os2 === undefined ? -font.readInt16BE(hhea + 6) : font.readUInt16BE(os2 + 76);
  const longMetrics = font.readUInt16BE(hhea + 34);
  const hmtx = tables.hmtx!;
  const glyphOf = glyphMap(font, tables.cmap!);
  return {
    unitsPerSize: winAscent + winDescent,
    ascentShare: winAscent / (winAscent + winDescent),
    advance(codePoint) {
      const glyph = glyphOf(codePoint);
      if (glyph === 0) return 0;
      return font.readUInt16BE(hmtx + Math.min(glyph, longMetrics - 1) * 4);
    },
  };
}

const cache = new Map<string, FontMetrics>();

/** The metrics of a font file, read once per process. */
export function fontMetrics(file: string): FontMetrics {
  let metrics = cache.get(file);
  if (!metrics) {
    metrics = parseFontMetrics(readFileSync(file));
    cache.set(file, metrics);
  }
  return metrics;
}

/** Width in pixels of `text` in a font at `size` (libass's size: ascender + descender). */
export function textWidth(metrics: FontMetrics, text: string, size: number): number {
  let units = 0;
  for (const char of text) units += metrics.advance(char.codePointAt(0)!);
  return (units * size) / metrics.unitsPerSize;
}
