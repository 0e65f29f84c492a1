export function clientIsStale(): boolean;
export function ensureClientBuilt(): void;
