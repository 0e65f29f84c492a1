import { z } from 'zod';

/** A font captions can be drawn in (GET /api/fonts); a caption style names one by `family`. */
export const captionFont = z.object({
  /** The family name, as a caption style's `font` names it. */
  family: z.string().min(1),
  /** The scripts it covers, as ISO 15924 codes ("Latn", "Kore"…); Intl.DisplayNames names them. */
  scripts: z.array(z.string().regex(/^[A-Z][a-z]{3}$/)).min(1),
});

export type CaptionFont = z.infer<typeof captionFont>;

export const captionFontList = z.array(captionFont);
