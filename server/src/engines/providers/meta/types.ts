import { z } from 'zod';

/** What both Meta platforms report about a published Reel; null where the platform reports nothing. */
export interface ReelStats {
  views: number | null;
  likes: number | null;
  comments: number | null;
  shares: number | null;
}

export const NO_STATS: ReelStats = { views: null, likes: null, comments: null, shares: null };

/** A Graph id: a decimal string, or a number where an answer carries one (parseMetaJson quotes the big ones). */
export const graphId = z.union([z.string().min(1), z.number().int().nonnegative()]).transform(String);

/** Seconds until a token ends, as a number (Meta sometimes sends it as a string). */
export const seconds = z.union([z.number(), z.string().regex(/^\d+$/)]).transform(Number);
