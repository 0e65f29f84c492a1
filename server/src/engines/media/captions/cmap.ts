/*
 * libass before 0.15 (the static ffmpeg 4.1 from @ffmpeg-installer has one) reads a font through
 * its first Microsoft Unicode character map, which in a spec-ordered font is the BMP-only one
 * (platform 3, encoding 1) even when a full-Unicode one (3, 10) follows. Emoji live above U+FFFF,
 * so through that map the emoji font has none of them and libass draws empty boxes. Pointing the
 * BMP record at the full map's subtable fixes it for every libass; FreeType looks subtables up by
 * their own format, not by the record's encoding, and the full map covers the BMP too.
 */

const MICROSOFT = 3;
const BMP = 1;
const FULL_UNICODE = 10;

/** Offset of the 'cmap' table, or null when the font has none. */
function cmapOffset(font: Buffer): number | null {
  const tableCount = font.readUInt16BE(4);
  for (let index = 0; index < tableCount; index++) {
    const record = 12 + index * 16;
    if (font.toString('latin1', record, record + 4) === 'cmap') return font.readUInt32BE(record + 8);
  }
  return null;
}

export interface CmapRecord {
  platform: number;
  encoding: number;
  /** The subtable's offset from the start of the 'cmap' table. */
  subtable: number;
  /** Where in the file the record stores that offset. */
  at: number;
}

/** The font's character map records (platform, encoding, subtable), in file order. */
export function cmapRecords(font: Buffer): CmapRecord[] {
  const cmap = cmapOffset(font);
  if (cmap === null) return [];
  return Array.from({ length: font.readUInt16BE(cmap + 2) }, (_, index) => {
    const record = cmap + 4 + index * 8;
    return { platform: font.readUInt16BE(record), encoding: font.readUInt16BE(record + 2), subtable: font.readUInt32BE(record + 4), at: record + 4 };
  });
}

/**
 * A copy of the font whose BMP character map record leads to its full-Unicode subtable; the font
 * itself when it has not both (nothing to fix).
 */
export function preferFullUnicodeCmap(font: Buffer): Buffer {
  const records = cmapRecords(font);
  const bmp = records.find((record) => record.platform === MICROSOFT && record.encoding === BMP);
  const full = records.find((record) => record.platform === MICROSOFT && record.encoding === FULL_UNICODE);
  if (!bmp || !full) return font;
  const patched = Buffer.from(font);
  patched.writeUInt32BE(full.subtable, bmp.at);
  return patched;
}

const SEGMENTED_COVERAGE = 12;

/**
 * The code points the font maps through its full-Unicode (3, 10) subtable, as sorted [first, last]
 * ranges; empty when it has none in format 12.
 */
export function fullUnicodeRanges(font: Buffer): Array<[number, number]> {
  const cmap = cmapOffset(font);
  const full = cmapRecords(font).find((record) => record.platform === MICROSOFT && record.encoding === FULL_UNICODE);
  if (cmap === null || !full) return [];
  const subtable = cmap + full.subtable;
  if (font.readUInt16BE(subtable) !== SEGMENTED_COVERAGE) return [];
  const groups = font.readUInt32BE(subtable + 12);
  return Array.from({ length: groups }, (_, index) => {
    const group = subtable + 16 + index * 12;
    return [font.readUInt32BE(group), font.readUInt32BE(group + 4)];
  });
}
