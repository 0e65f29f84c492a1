/** The domains, lowest first (see eslint.rules.js). */
export const DOMAIN_ORDER: readonly string[];
declare const rules: readonly object[];
export default rules;
