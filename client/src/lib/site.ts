/** Public facts about the service, shown on the landing and legal pages. */
export const SITE_NAME = 'Clipshift';
export const CONTACT_EMAIL = 'support@clipshift.app';
export const LEGAL_LAST_UPDATED = 'November 27, 2026';
