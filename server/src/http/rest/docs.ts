/** A readable, self-contained HTML rendering of the OpenAPI document (no external scripts). */

type Json = Record<string, unknown>;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

function schemaBlock(schema: unknown): string {
  if (!schema || (typeof schema === 'object' && Object.keys(schema).length === 0)) return '';
  return `<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`;
}

function renderOperation(path: string, method: string, op: Json): string {
  const params = (op.parameters as Json[] | undefined) ?? [];
  const responses = (op.responses as Record<string, Json>) ?? {};
  const body = (op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
  const responseRows = Object.entries(responses)
    .map(([status, response]) => {
      const content = response.content as Record<string, Json> | undefined;
      const schema = content?.['application/json']?.schema;
      const isRef = schema && typeof schema === 'object' && '$ref' in schema;
      return `<li><code>${status}</code> ${escapeHtml(String(response.description ?? ''))}${isRef ? '' : schemaBlock(schema)}</li>`;
    })
    .join('');
  return `<section class="op">
  <h3><span class="method ${method}">${method.toUpperCase()}</span> <code>/api${escapeHtml(path)}</code>${op.security ? ' <span class="lock">session</span>' : ''}</h3>
  <p>${escapeHtml(String(op.summary ?? ''))}</p>
  ${params.length ? `<h4>Parameters</h4><ul>${params.map((param) => `<li><code>${escapeHtml(String(param.name))}</code> (${escapeHtml(String(param.in))})</li>`).join('')}</ul>` : ''}
  ${body ? `<h4>Body (application/json)</h4>${schemaBlock(body['application/json']?.schema)}` : ''}
  <h4>Responses</h4><ul>${responseRows}</ul>
</section>`;
}

export function renderDocsPage(document: Json): string {
  const info = document.info as Json;
  const paths = document.paths as Record<string, Record<string, Json>>;
  const byTag = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const tag = ((op.tags as string[] | undefined) ?? ['Other'])[0]!;
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push(renderOperation(path, method, op));
    }
  }
  const sections = [...byTag.entries()].map(([tag, ops]) => `<h2 id="${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${ops.join('')}`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(String(info.title))} reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#0f172a}
h1{margin-bottom:.25rem} h2{border-bottom:1px solid #e2e8f0;padding-bottom:.25rem;margin-top:2rem}
.op{border:1px solid #e2e8f0;border-radius:8px;padding:.75rem 1rem;margin:1rem 0}
.op h3{margin:.25rem 0;font-size:1rem} .op h4{margin:.5rem 0 .25rem;font-size:.85rem;color:#475569}
.method{display:inline-block;min-width:4rem;text-align:center;border-radius:4px;color:#fff;font-size:.8rem;padding:.1rem .4rem}
.get{background:#2563eb}.post{background:#16a34a}.put{background:#d97706}.delete{background:#dc2626}
.lock{font-size:.75rem;color:#7c3aed;border:1px solid #c4b5fd;border-radius:4px;padding:0 .3rem}
pre{background:#f8fafc;border:1px solid #e2e8f0;border-radius:6px;padding:.5rem;overflow:auto;font-size:.8rem}
</style></head><body>
<h1>${escapeHtml(String(info.title))}</h1>
<p>${escapeHtml(String(info.description ?? ''))} Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a>.</p>
<nav>${[...byTag.keys()].map((tag) => `<a href="#${escapeHtml(tag)}">${escapeHtml(tag)}</a>`).join(' · ')}</nav>
${sections}
</body></html>`;
}
