type Owners = Readonly<Record<string, readonly string[]>>;

export function domainFolders(repo: string): string[];
export function providerFolders(repo: string): string[];
export function tablesTouched(source: string, tables: ReadonlySet<string>): { table: string; line: number }[];
export function unitOf(relativeToSrc: string): string;
/** Problems as "file:line: unit touches table (owned by owner)"; sources are [path relative to repo, text]. */
export function tableCrossings(repo: string, owners: Owners, sources?: readonly (readonly [string, string])[]): string[];
export function ownershipProblems(repo: string, owners: Owners): string[];
export function engineEntries(repo: string): string[];
export function unusedEngineExports(repo: string): string[];
export function staleDocLists(repo: string, lists: { owners: Owners; domainOrder: readonly string[] }): string[];
