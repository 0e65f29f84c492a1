// Counts what the architecture rules are about, for a tree given as argument (default: this repo):
// import edges between domains, cycles between folders, upward imports between rings, and files
// outside http/ that import @trpc/server. `npm run arch:report [-- repo-dir]`.
// `npm run arch:report -- --check` instead runs the checks of scripts/arch-checks.mjs (table owners,
// engine entries, the docs' lists) and exits 1 listing every violation. It runs under tsx: the
// table owners are declared in TypeScript (server/src/domains/ownership.ts).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ownershipProblems, staleDocLists, tableCrossings, unusedEngineExports } from './arch-checks.mjs';

const checkMode = process.argv.includes('--check');
const repo = path.resolve(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? '.');

if (checkMode) {
  const { TABLE_OWNERS } = await import(pathToFileURL(path.join(repo, 'server/src/domains/ownership.ts')).href);
  const { DOMAIN_ORDER } = await import(pathToFileURL(path.join(repo, 'server/eslint.rules.js')).href);
  const problems = [
    ...ownershipProblems(repo, TABLE_OWNERS),
    ...tableCrossings(repo, TABLE_OWNERS),
    ...unusedEngineExports(repo).map((problem) => `${problem} is exported but used only inside its engine (or by tests)`),
    ...staleDocLists(repo, { owners: TABLE_OWNERS, domainOrder: DOMAIN_ORDER }),
  ];
  for (const problem of problems) console.error(problem);
  console.log(problems.length ? `${problems.length} architecture problem(s)` : 'architecture checks pass');
  process.exit(problems.length ? 1 : 0);
}

const src = path.join(repo, 'server/src');
const RINGS = ['platform', 'engines', 'domains', 'jobs', 'http', 'app'];
const layered = fs.existsSync(path.join(src, 'domains'));

function listFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The folder a file belongs to: a domain or engine of its own, else the top folder. */
function unitOf(file) {
  const parts = path.relative(src, file).split(path.sep);
  if (parts.length === 1) return '(root)';
  if (layered && (parts[0] === 'domains' || parts[0] === 'engines') && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0];
}

const OLD_DOMAINS = new Set(['auth', 'invites', 'guests', 'streamers', 'downloads', 'clips', 'subtitles', 'descriptions', 'tiktok', 'logs', 'settings', 'health']);
const isDomain = (unit) => (layered ? unit.startsWith('domains/') : OLD_DOMAINS.has(unit));
// The package entry (index.ts) re-exports router types for the client: it is the outermost ring.
const ringOf = (unit) => (unit === '(root)' ? RINGS.length : RINGS.indexOf(unit.split('/')[0]));

const IMPORT = /(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;
const edges = new Map();
let crossDomain = 0;
let crossDomainPastService = 0;
const upward = [];
const trpcOutsideHttp = [];
for (const file of listFiles(src)) {
  const from = unitOf(file);
  for (const [, spec] of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
    if (spec.startsWith('@trpc/server')) {
      const rel = path.relative(src, file);
      if (!(layered ? rel.startsWith('http/') : rel.startsWith('trpc/') || rel.startsWith('rest/'))) trpcOutsideHttp.push(rel);
      continue;
    }
    if (!spec.startsWith('.')) continue;
    const to = unitOf(path.resolve(path.dirname(file), spec));
    if (to === from) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from).add(to);
    if (isDomain(from) && isDomain(to)) {
      crossDomain++;
      // A domain's public API is its service.ts (or index.ts); anything else is reaching inside it.
      if (!/(^|\/)(service|index)\.ts$/.test(spec)) crossDomainPastService++;
    }
    if (layered && ringOf(to) > ringOf(from)) upward.push(`${path.relative(src, file)} → ${spec}`);
  }
}

/** Tarjan's strongly connected components: every component of more than one folder is a cycle. */
function cycles() {
  let index = 0;
  const idx = new Map(), low = new Map(), stack = [], onStack = new Set(), found = [];
  const visit = (v) => {
    idx.set(v, index); low.set(v, index++); stack.push(v); onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const component = [];
      let w;
      do { w = stack.pop(); onStack.delete(w); component.push(w); } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) visit(v);
  return found;
}

const folderCycles = cycles();
console.log(JSON.stringify({
  layout: layered ? 'rings' : 'flat',
  crossDomainImports: crossDomain,
  crossDomainImportsPastService: crossDomainPastService,
  upwardImports: layered ? upward.length : null,
  upward: layered ? upward : undefined,
  folderCycles: folderCycles.length,
  foldersInCycles: folderCycles.map((c) => c.join(' ↔ ')),
  trpcImportsOutsideHttp: trpcOutsideHttp.length,
}, null, 2));
