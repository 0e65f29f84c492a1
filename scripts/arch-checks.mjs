// The architecture's written rules that ESLint's import zones cannot express, as checks that list
// their violations (docs/decisions/0030-architecture-checks.md):
//   tableCrossings      a domain (or ring) touches a table another one owns (domains/ownership.ts)
//   unusedEngineExports an engine's index.ts exports something no code outside the engine uses
//   staleDocLists       README.md's and 0013's lists of domains, providers, DOMAIN_ORDER and table
//                       owners differ from the code
// Each returns a list of problems (empty: the rule holds). scripts/arch-report.mjs --check runs them;
// tests/integration/architecture-checks.test.ts runs them in `npm test` and feeds them crafted crossings.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SERVER_SRC = 'server/src';

function listFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const subfolders = (dir) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/** The domains: every folder under server/src/domains. */
export const domainFolders = (repo) => subfolders(path.join(repo, SERVER_SRC, 'domains'));

/** The providers: the folders under engines/providers with an index.ts (http/ is their shared plumbing). */
export const providerFolders = (repo) =>
  subfolders(path.join(repo, SERVER_SRC, 'engines/providers')).filter((name) => fs.existsSync(path.join(repo, SERVER_SRC, 'engines/providers', name, 'index.ts')));

// ---------------------------------------------------------------------------------------------
// Tables

/** Blanks out comments, keeping every newline so that offsets still give the right line. */
function withoutComments(source) {
  const blank = (text) => text.replace(/[^\n]/g, ' ');
  return source.replace(/\/\*[\s\S]*?\*\//g, blank).replace(/(^|[^:'"`\\])\/\/[^\n]*/g, (match, before) => before + blank(match.slice(before.length)));
}

const lineAt = (source, index) => source.slice(0, index).split('\n').length;

/** Kysely's builder calls whose first argument names a table (or an array of them). */
const BUILDER_CALL = /\b(?:selectFrom|insertInto|updateTable|deleteFrom|mergeInto|replaceInto|(?:inner|left|right|full|cross)Join(?:Lateral)?|sql\.table)\(\s*(\[[^\]]*\]|'[^']*'|"[^"]*")/g;
const STRING = /'([^']*)'|"([^"]*)"/g;
/** A CTE named in Kysely (`.with('name', …)`) is not a table. */
const KYSELY_CTE = /\.with(?:Recursive)?\(\s*'([a-z_][a-z0-9_]*)/g;
/** A tagged sql template: sql`…`, sql<T>`…`. */
const SQL_TAG = /\bsql\s*(?:<[^`;]*?>)?\s*`/g;
/** Where raw SQL names a table. */
const SQL_TABLE = /\b(?:from|join|update|into|using)\s+(?:only\s+)?"?([a-z_][a-z0-9_]*)/gi;
const SQL_CTE = /(?:\bwith(?:\s+recursive)?|,)\s+([a-z_][a-z0-9_]*)\s+as\s*(?:not\s+)?(?:materialized\s+)?\(/gi;

/** Where the template literal whose text starts at `start` ends (after its backtick), and its ${…} spans. */
function templateSpans(source, start) {
  const holes = [];
  let i = start;
  while (i < source.length && source[i] !== '`') {
    if (source[i] === '\\') i += 2;
    else if (source[i] === '$' && source[i + 1] === '{') {
      const from = i;
      let depth = 1;
      i += 2;
      while (i < source.length && depth > 0) {
        if (source[i] === '`') i = templateSpans(source, i + 1).end;
        else {
          if (source[i] === '{') depth++;
          else if (source[i] === '}') depth--;
          i++;
        }
      }
      holes.push([from, i]);
    } else i++;
  }
  return { end: i + 1, holes };
}

/** The text of the template literal whose text starts at `start`, its ${…} blanked (same length, same lines). */
function templateText(source, start) {
  const { end, holes } = templateSpans(source, start);
  const chars = source.slice(start, end - 1).split('');
  for (const [from, to] of holes) for (let i = from; i < to; i++) if (chars[i - start] !== '\n') chars[i - start] = ' ';
  return { text: chars.join(''), end };
}

/**
 * The tables a TypeScript source touches, with the line of each: Kysely builder calls (from,
 * insert, update, delete, joins, sql.table) and raw SQL in sql`` templates. Only names in `tables`
 * count: raw SQL's other words after FROM (CTEs, functions' arguments) are not tables.
 */
export function tablesTouched(source, tables) {
  const code = withoutComments(source);
  const ctes = new Set([...code.matchAll(KYSELY_CTE)].map((match) => match[1]));
  const found = [];
  const add = (table, index) => {
    if (tables.has(table) && !ctes.has(table)) found.push({ table, line: lineAt(code, index) });
  };
  for (const match of code.matchAll(BUILDER_CALL)) {
    for (const [, single, double] of match[1].matchAll(STRING)) add((single ?? double).trim().split(/\s+as\s+/)[0], match.index);
  }
  for (const match of code.matchAll(SQL_TAG)) {
    const start = match.index + match[0].length;
    const { text } = templateText(code, start);
    const sqlCtes = new Set([...text.matchAll(SQL_CTE)].map((cte) => cte[1].toLowerCase()));
    for (const name of text.matchAll(SQL_TABLE)) {
      const table = name[1].toLowerCase();
      if (!sqlCtes.has(table)) add(table, start + name.index);
    }
  }
  return found;
}

/** Who a server file speaks for: its domain for domains/<name>/…, else its ring (platform, jobs…). */
export function unitOf(relativeToSrc) {
  const parts = relativeToSrc.split(/[\\/]/);
  if (parts[0] === 'domains' && parts.length > 2) return parts[1];
  return parts.length === 1 ? '(root)' : parts[0];
}

/**
 * Every place where server code touches a table its unit does not own, as
 * "file:line: unit touches table (owned by owner)". `owners` maps unit → its tables
 * (server/src/domains/ownership.ts); `sources` defaults to the server's files.
 */
export function tableCrossings(repo, owners, sources = serverSources(repo)) {
  const ownerOf = new Map(Object.entries(owners).flatMap(([unit, tables]) => tables.map((table) => [table, unit])));
  const tables = new Set(ownerOf.keys());
  const problems = [];
  for (const [file, source] of sources) {
    const unit = unitOf(path.relative(path.join(repo, SERVER_SRC), path.resolve(repo, file)));
    for (const { table, line } of tablesTouched(source, tables)) {
      const owner = ownerOf.get(table);
      if (owner !== unit) problems.push(`${file}:${line}: ${unit} touches ${table} (owned by ${owner})`);
    }
  }
  return problems;
}

/** The server's files and their text, by path relative to the repo. */
function serverSources(repo) {
  return listFiles(path.join(repo, SERVER_SRC)).map((file) => [path.relative(repo, file), fs.readFileSync(file, 'utf8')]);
}

/**
 * Problems with the ownership map itself: every domain folder has an entry (an empty list when it
 * owns nothing), and every entry is a domain or a ring.
 */
export function ownershipProblems(repo, owners) {
  const domains = domainFolders(repo);
  const rings = subfolders(path.join(repo, SERVER_SRC)).filter((ring) => ring !== 'domains');
  const problems = domains.filter((domain) => !(domain in owners)).map((domain) => `domains/ownership.ts: domain ${domain} has no entry (give it [] if it owns no table)`);
  for (const unit of Object.keys(owners)) {
    if (!domains.includes(unit) && !rings.includes(unit)) problems.push(`domains/ownership.ts: ${unit} is neither a domain folder nor a ring`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Engine entries

/** Every engine entry: engines/<name>/index.ts and engines/providers/<name>/index.ts. */
export function engineEntries(repo) {
  const engines = path.join(repo, SERVER_SRC, 'engines');
  const direct = subfolders(engines).filter((name) => fs.existsSync(path.join(engines, name, 'index.ts')));
  return [...direct.map((name) => `engines/${name}`), ...providerFolders(repo).map((name) => `engines/providers/${name}`)];
}

/** The names a module exports (with `export *` followed), by the TypeScript checker. */
function exportedNames(program, file) {
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(file));
  return symbol ? checker.getExportsOfModule(symbol).map((exported) => exported.getName()) : [];
}

/** What `file` imports from `target` (an absolute path): its names, or '*' for a namespace import. */
function namesImportedFrom(file, source, target) {
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const resolves = (specifier) => {
    if (!specifier.startsWith('.')) return false;
    const full = path.resolve(path.dirname(file), specifier);
    return [full, `${full}.ts`, path.join(full, 'index.ts')].includes(target);
  };
  const names = [];
  for (const statement of parsed.statements) {
    const specifier = (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : null;
    if (!specifier || !resolves(specifier)) continue;
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (statement.importClause?.name) names.push('default');
      if (bindings && ts.isNamespaceImport(bindings)) names.push('*');
      else if (bindings) names.push(...bindings.elements.map((element) => (element.propertyName ?? element.name).text));
    } else if (statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      names.push(...statement.exportClause.elements.map((element) => (element.propertyName ?? element.name).text));
    } else {
      names.push('*');
    }
  }
  return names;
}

/**
 * Exports of an engine's index.ts that no server file outside that engine imports (tests do not
 * count: they may import an engine's files directly), as "engines/x/index.ts: name".
 */
export function unusedEngineExports(repo) {
  const entries = engineEntries(repo).map((engine) => ({ engine, file: path.join(repo, SERVER_SRC, engine, 'index.ts') }));
  const program = ts.createProgram(
    entries.map((entry) => entry.file),
    { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022, allowImportingTsExtensions: true, noEmit: true, skipLibCheck: true, types: [] },
  );
  const sources = listFiles(path.join(repo, SERVER_SRC)).map((file) => [file, fs.readFileSync(file, 'utf8')]);
  const problems = [];
  for (const { engine, file } of entries) {
    const folder = path.dirname(file) + path.sep;
    const used = new Set(sources.filter(([other]) => !other.startsWith(folder)).flatMap(([other, source]) => namesImportedFrom(other, source, file)));
    if (used.has('*')) continue;
    for (const name of exportedNames(program, file)) if (!used.has(name)) problems.push(`${SERVER_SRC}/${engine}/index.ts: ${name}`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Docs

const sameList = (written, actual) => written.length === actual.length && written.every((name, index) => name === actual[index]);
const splitList = (text) =>
  text
    .split(/,|\band\b/)
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);

/** The list written after `label` on the line that starts with it (up to a parenthesis), or null. */
function listOnLine(doc, label) {
  const line = doc.split('\n').find((text) => text.trimStart().startsWith(label));
  return line ? splitList(line.trimStart().slice(label.length).split('(')[0]) : null;
}

/** The providers named in "providers (…)" or "providers/ (…)". */
function providersIn(doc) {
  const match = /providers\/? \(([^)]*)\)/.exec(doc);
  return match ? splitList(match[1]).sort() : null;
}

/** The domains of the "domain | tables" table and their tables, sorted. */
function ownersTable(doc) {
  const rows = [...doc.matchAll(/^\| ([a-z][a-z-]*) \| ([^|]*) \|$/gm)].filter(([, unit]) => unit !== 'domain');
  return rows.map(([, unit, tables]) => `${unit}: ${/^none\b/.test(tables.trim()) ? '' : splitList(tables.replace(/\([^)]*\)/g, '')).sort().join(', ')}`).sort();
}

/**
 * Where README.md's architecture sketch and docs/decisions/0013-server-rings.md disagree with the
 * code: the domain folders, the provider folders, DOMAIN_ORDER and the table owners.
 */
export function staleDocLists(repo, { owners, domainOrder }) {
  const domains = domainFolders(repo);
  const providers = providerFolders(repo);
  const decision = fs.readdirSync(path.join(repo, 'docs/decisions')).find((name) => name.startsWith('0013-'));
  const docs = [
    ['README.md', fs.readFileSync(path.join(repo, 'README.md'), 'utf8')],
    [`docs/decisions/${decision}`, fs.readFileSync(path.join(repo, 'docs/decisions', decision), 'utf8')],
  ];
  const problems = [];
  const expectList = (where, what, written, actual) => {
    if (written === null) problems.push(`${where}: no ${what} list found`);
    else if (!sameList(written, actual)) problems.push(`${where}: ${what} are "${written.join(', ')}", the code has "${actual.join(', ')}"`);
  };
  for (const [where, doc] of docs) {
    expectList(where, 'domains', listOnLine(doc, 'domains/')?.sort() ?? null, domains);
    expectList(where, 'providers', providersIn(doc), providers);
  }
  const [where, doc] = docs[1];
  const order = /`(logs ←[^`]*)`/.exec(doc);
  expectList(where, 'DOMAIN_ORDER', order ? order[1].split('←').map((name) => name.trim()) : null, domainOrder);
  const actualOwners = Object.entries(owners)
    .map(([unit, tables]) => `${unit}: ${[...tables].sort().join(', ')}`)
    .sort();
  expectList(where, 'table owners', ownersTable(doc), actualOwners);
  return problems;
}
