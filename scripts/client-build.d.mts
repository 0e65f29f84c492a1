export function clientIsStale(): boolean;
export function buildClient(options?: { quiet?: boolean }): void;
export function ensureClientBuilt(): void;
