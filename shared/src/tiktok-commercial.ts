import { z } from 'zod';
import type { PrivacyLevel } from './tiktok.ts';

/*
 * TikTok's commercial content disclosure (Content Posting API: brand_organic_toggle and
 * brand_content_toggle of post_info). Its content-sharing guidelines ask the composer to offer the
 * disclosure, to label the post as TikTok will, and to keep branded content from being private.
 */

/** What a post discloses: promoting the creator's own brand, a third party's (paid partnership), or both. */
export const tiktokCommercial = z.object({
  /** "Your brand": sent as brand_organic_toggle. */
  your_brand: z.boolean({ error: 'tiktok_commercial.your_brand must be true or false' }).default(false),
  /** "Branded content": sent as brand_content_toggle. */
  branded_content: z.boolean({ error: 'tiktok_commercial.branded_content must be true or false' }).default(false),
});
export type TikTokCommercial = z.output<typeof tiktokCommercial>;
export type TikTokCommercialInput = z.input<typeof tiktokCommercial>;

export const NO_COMMERCIAL_CONTENT: TikTokCommercial = { your_brand: false, branded_content: false };

/** TikTok refuses a branded post that only the creator may see. */
export const BRANDED_CONTENT_PRIVATE = "Branded content can't be private on TikTok";
/** The disclosure switch is on but says nothing yet. */
export const DISCLOSURE_TYPE_NEEDED = 'Choose whether the content promotes yourself, a third party, or both';
export const YOUR_BRAND_LABEL = 'Your photo/video will be labeled as "Promotional content"';
export const BRANDED_CONTENT_LABEL = 'Your photo/video will be labeled as "Paid partnership"';

/** The one privacy level branded content may not have. */
export const PRIVATE_LEVEL: PrivacyLevel = 'SELF_ONLY';

/**
 * Why TikTok would refuse this disclosure with this privacy level (a TikTok privacy level; null when
 * the post job chooses), or null. The API refuses with it (400) and the post job fails with it.
 */
export function commercialProblem(commercial: TikTokCommercialInput | null | undefined, privacyLevel: string | null | undefined): string | null {
  return commercial?.branded_content === true && privacyLevel === PRIVATE_LEVEL ? BRANDED_CONTENT_PRIVATE : null;
}

/** The composer's disclosure: the switch, and the two kinds once it is on. */
export interface DisclosureChoice {
  disclose: boolean;
  your_brand: boolean;
  branded_content: boolean;
}

export const NO_DISCLOSURE: DisclosureChoice = { disclose: false, your_brand: false, branded_content: false };

/** Why posting waits on the disclosure: it is switched on without saying whose content it promotes. */
export function disclosureProblem(choice: DisclosureChoice): string | null {
  return choice.disclose && !choice.your_brand && !choice.branded_content ? DISCLOSURE_TYPE_NEEDED : null;
}

/** What goes to the API: nothing disclosed while the switch is off. */
export function commercialOf(choice: DisclosureChoice): TikTokCommercial {
  return choice.disclose ? { your_brand: choice.your_brand, branded_content: choice.branded_content } : NO_COMMERCIAL_CONTENT;
}

/** The labels TikTok will put on the post, in the words its guidelines ask the composer to show. */
export function disclosureLabels(commercial: TikTokCommercialInput): string[] {
  return [...(commercial.your_brand ? [YOUR_BRAND_LABEL] : []), ...(commercial.branded_content ? [BRANDED_CONTENT_LABEL] : [])];
}
