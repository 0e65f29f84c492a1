/** Bundles the server into server/dist; resolves to that folder. */
export function buildServer(): Promise<string>;
export const PRODUCTION_FILES: readonly string[];
