import {
  AWKWARD_TEXT,
  isNumberSchema,
  isStringSchema,
  outOfRangeValue,
  propertiesWhere,
  validValue,
  wrongTypeValue,
  type Hints,
  type JsonSchema,
  type Random,
} from '../helpers/json-schema-fuzz.ts';

/** One operation of the OpenAPI document, as the fuzz test reads it. */
export interface Operation {
  method: string;
  /** Document form, e.g. "/streamers/{name}". */
  path: string;
  operationId: string;
  parameters: Parameter[];
  /** The JSON body's schema, when the operation takes one. */
  body?: JsonSchema;
  bodyRequired: boolean;
  secured: boolean;
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: JsonSchema;
}

export type SessionKind = 'member' | 'admin' | 'none' | 'bogus';

/** One request to send: the path as sent on the wire (it may hold bad escapes on purpose). */
export interface FuzzCase {
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  session: SessionKind;
}

export interface CaseContext {
  random: Random;
  /** Values for body fields and query/header parameters, by name. */
  hints: Hints;
  /** Values for path parameters, by name, for this operation's path. */
  pathHints: Hints;
  /** The app's own origin, sent on most state-changing requests as a browser would. */
  origin: string;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE']);
const BAD_ESCAPES = ['%E0%A4%A', '%zz', '%', '%C0%AF', '%ED%A0%80'];
const AWKWARD_SEGMENTS = ['..', '.', '%2F', '%2e%2e', encodeURIComponent('🎬 clip'), encodeURIComponent('مرحبا'), 'x'.repeat(3000), encodeURIComponent("' or 1=1 --")];

/** Builds a document's operations, the JSON ones and the others alike. */
export function operationsOf(document: JsonSchema): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, JsonSchema>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const requestBody = operation.requestBody as { required?: boolean; content: Record<string, { schema: JsonSchema }> } | undefined;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: String(operation.operationId),
        parameters: (operation.parameters ?? []) as Parameter[],
        body: requestBody?.content['application/json']?.schema,
        bodyRequired: requestBody?.required === true,
        secured: Array.isArray(operation.security),
        responses: operation.responses as Operation['responses'],
      });
    }
  }
  return operations;
}

interface Request {
  /** Path and query values as they go on the wire (%-encoded, or spoiled on purpose). */
  params: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string>;
  body?: unknown;
  /** Set when the body is sent as this exact text instead of JSON. */
  rawBody?: string;
}

function validRequest(operation: Operation, context: CaseContext): Request {
  const { random, hints, pathHints } = context;
  const request: Request = { params: {}, query: [], headers: {} };
  for (const param of operation.parameters) {
    if (param.in === 'path') {
      request.params[param.name] = encodeURIComponent(String(validValue(param.schema, random, pathHints, param.name)));
    } else if (hints[param.name] || random.chance(param.in === 'query' ? 0.5 : 0.1)) {
      // Headers without a hint now and then only: a random If-Match alone would make every answer a 412.
      const chosen = validValue(param.schema, random, hints, param.name);
      // A hint of undefined leaves the parameter out.
      if (chosen === undefined) continue;
      const value = String(chosen);
      if (param.in === 'query') request.query.push([param.name, encodeURIComponent(value)]);
      else request.headers[param.name] = value;
    }
  }
  if (operation.body && (operation.bodyRequired || random.chance(0.8))) request.body = validValue(operation.body, random, hints);
  return request;
}

/** A copy of an object body with `change` applied, or the body itself when it is no object. */
function changedBody(body: unknown, change: (fields: Record<string, unknown>) => void): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const fields = { ...(body as Record<string, unknown>) };
  change(fields);
  return fields;
}

function deeplyNested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

type Mutation = (request: Request, operation: Operation, context: CaseContext) => { session?: SessionKind; origin?: string | null } | void;

/** Ways to spoil a request, each applicable to some operations. */
const MUTATIONS: { kind: string; applies: (operation: Operation) => boolean; apply: Mutation }[] = [
  { kind: 'no-session', applies: (op) => op.secured, apply: () => ({ session: 'none' }) },
  { kind: 'bogus-session', applies: () => true, apply: () => ({ session: 'bogus' }) },
  { kind: 'cross-site', applies: (op) => STATE_CHANGING.has(op.method), apply: () => ({ origin: 'https://evil.example' }) },
  { kind: 'no-origin', applies: (op) => STATE_CHANGING.has(op.method), apply: () => ({ origin: null }) },
  {
    kind: 'wrong-type',
    applies: (op) => Boolean(op.body),
    apply: (request, op, { random }) => {
      const names = propertiesWhere(op.body!, () => true);
      const name = random.pick(names);
      const schema = ((op.body!.properties ?? {}) as Record<string, JsonSchema>)[name]!;
      request.body = changedBody(request.body ?? {}, (fields) => {
        fields[name] = wrongTypeValue(schema, random);
      });
    },
  },
  {
    kind: 'missing-required',
    applies: (op) => Array.isArray(op.body?.required) && (op.body.required as unknown[]).length > 0,
    apply: (request, op, { random }) => {
      const name = random.pick(op.body!.required as string[]);
      request.body = changedBody(request.body ?? {}, (fields) => {
        delete fields[name];
      });
    },
  },
  {
    kind: 'extra-field',
    applies: (op) => Boolean(op.body),
    apply: (request, _op, { random }) => {
      request.body = changedBody(request.body ?? {}, (fields) => {
        fields[random.pick(['__proto__', 'constructor', 'is_admin', 'user_id', 'body_name', 'id'])] = random.pick([true, 'x', { polluted: true }, 1]);
      });
    },
  },
  {
    kind: 'out-of-range',
    applies: (op) => Boolean(op.body) && propertiesWhere(op.body!, (schema) => isNumberSchema(schema) || isStringSchema(schema)).length > 0,
    apply: (request, op, { random }) => {
      const name = random.pick(propertiesWhere(op.body!, (schema) => isNumberSchema(schema) || isStringSchema(schema)));
      const schema = ((op.body!.properties ?? {}) as Record<string, JsonSchema>)[name]!;
      request.body = changedBody(request.body ?? {}, (fields) => {
        fields[name] = outOfRangeValue(schema, random);
      });
    },
  },
  {
    kind: 'nul-byte',
    applies: (op) => Boolean(op.body),
    apply: (request, op, { random }) => {
      const strings = propertiesWhere(op.body!, isStringSchema);
      request.body = changedBody(request.body ?? {}, (fields) => {
        if (strings.length && random.chance(0.7)) fields[random.pick(strings)] = 'before\u0000after';
        else fields['key\u0000nul'] = 'x';
      });
    },
  },
  {
    kind: 'unicode',
    applies: (op) => Boolean(op.body) && propertiesWhere(op.body!, isStringSchema).length > 0,
    apply: (request, op, { random }) => {
      const name = random.pick(propertiesWhere(op.body!, isStringSchema));
      request.body = changedBody(request.body ?? {}, (fields) => {
        fields[name] = random.pick(AWKWARD_TEXT);
      });
    },
  },
  {
    kind: 'not-an-object',
    applies: (op) => Boolean(op.body),
    apply: (request, _op, { random }) => {
      request.body = random.pick([[], [{}], 'text', 42, null, true]);
    },
  },
  {
    kind: 'empty-body',
    applies: (op) => STATE_CHANGING.has(op.method),
    apply: (request) => {
      request.body = undefined;
      request.rawBody = '';
      request.headers['content-type'] = 'application/json';
    },
  },
  {
    kind: 'malformed-json',
    applies: (op) => STATE_CHANGING.has(op.method),
    apply: (request, _op, { random }) => {
      request.rawBody = random.pick(['{', '{"a":}', "{'a':1}", '[1,]', 'nul', '{"a":1}}', '\u0000']);
    },
  },
  {
    kind: 'not-json-content-type',
    applies: (op) => STATE_CHANGING.has(op.method),
    apply: (request, _op, { random }) => {
      request.rawBody = 'name=x&clip_limit=3';
      request.headers['content-type'] = random.pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml']);
    },
  },
  {
    kind: 'odd-json-encoding',
    applies: (op) => STATE_CHANGING.has(op.method),
    apply: (request, _op, { random }) => {
      request.rawBody = '{"a":1}';
      const choice = random.pick(['charset', 'gzip', 'deflate']);
      if (choice === 'charset') request.headers['content-type'] = 'application/json; charset=utf-7';
      else request.headers['content-encoding'] = choice;
    },
  },
  {
    kind: 'too-large',
    applies: (op) => STATE_CHANGING.has(op.method),
    apply: (request) => {
      request.rawBody = JSON.stringify({ padding: 'x'.repeat(110 * 1024) });
    },
  },
  {
    kind: 'deeply-nested',
    applies: (op) => STATE_CHANGING.has(op.method),
    apply: (request) => {
      request.rawBody = deeplyNested(3000);
    },
  },
  {
    kind: 'path-bad-escape',
    applies: (op) => op.parameters.some((param) => param.in === 'path'),
    apply: (request, _op, { random }) => {
      const name = Object.keys(request.params)[0]!;
      request.params[name] = `a${random.pick(BAD_ESCAPES)}`;
    },
  },
  {
    kind: 'path-nul',
    applies: (op) => op.parameters.some((param) => param.in === 'path'),
    apply: (request) => {
      const name = Object.keys(request.params)[0]!;
      request.params[name] = 'a%00b';
    },
  },
  {
    kind: 'path-awkward',
    applies: (op) => op.parameters.some((param) => param.in === 'path'),
    apply: (request, _op, { random }) => {
      const name = Object.keys(request.params)[0]!;
      request.params[name] = random.pick(AWKWARD_SEGMENTS);
    },
  },
  {
    kind: 'query-wrong',
    applies: (op) => op.parameters.some((param) => param.in === 'query'),
    apply: (request, op, { random }) => {
      const param = random.pick(op.parameters.filter((candidate) => candidate.in === 'query'));
      const value = random.pick(['-1', '1.5', '1e3', ' 7', 'abc', '99999999999999999999', '0', '', 'x'.repeat(5000), '🎬', '+1']);
      request.query.push([param.name, encodeURIComponent(value)]);
    },
  },
  {
    kind: 'query-repeated',
    applies: (op) => op.parameters.some((param) => param.in === 'query'),
    apply: (request, op, { random }) => {
      const param = random.pick(op.parameters.filter((candidate) => candidate.in === 'query'));
      request.query.push([param.name, '1'], [param.name, '2']);
    },
  },
  {
    kind: 'query-bad-escape',
    applies: () => true,
    apply: (request, _op, { random }) => {
      request.query.push(['q', `%%${random.pick(BAD_ESCAPES)}`]);
    },
  },
  {
    kind: 'query-nul',
    applies: () => true,
    apply: (request) => {
      request.query.push(['q', '%00']);
    },
  },
  {
    kind: 'range',
    applies: (op) => op.parameters.some((param) => param.name === 'Range'),
    apply: (request, _op, { random }) => {
      request.headers.Range = random.pick(['bytes=0-99', 'bytes=-10', 'bytes=100-', 'bytes=999999999-', 'bytes=5-1', 'bytes=abc', 'items=0-1', 'bytes=0-1,5-9', 'bytes=']);
      if (random.chance(0.3)) request.headers['If-Range'] = random.pick(['"stale"', 'Thu, 01 Jan 1970 00:00:00 GMT', 'garbage']);
    },
  },
  {
    kind: 'conditional',
    applies: (op) => op.parameters.some((param) => param.name === 'If-None-Match'),
    apply: (request, _op, { random }) => {
      const header = random.pick(['If-None-Match', 'If-Modified-Since', 'If-Match', 'If-Unmodified-Since']);
      request.headers[header] = random.pick(['*', '"nope"', 'Thu, 01 Jan 2099 00:00:00 GMT', 'Thu, 01 Jan 1970 00:00:00 GMT', 'not a date']);
    },
  },
];

const encodeQuery = (query: [string, string][]) => (query.length ? `?${query.map(([name, value]) => `${encodeURIComponent(name)}=${value}`).join('&')}` : '');

function toCase(operation: Operation, request: Request, kind: string, context: CaseContext, session: SessionKind, origin: string | null): FuzzCase {
  const path = `/api${operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => request.params[name] ?? 'x')}${encodeQuery(request.query)}`;
  const headers = { ...request.headers };
  let body: string | undefined;
  if (request.rawBody !== undefined) {
    body = request.rawBody;
    headers['content-type'] ??= 'application/json';
  } else if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['content-type'] = 'application/json';
  }
  if (origin && STATE_CHANGING.has(operation.method)) headers.origin = origin;
  return { kind, method: operation.method, path, headers, body, session };
}

/**
 * `count` requests for one operation: about a third valid (from the document's schemas, with the
 * hints), the rest each spoiled in one way that applies to the operation.
 */
export function casesFor(operation: Operation, count: number, context: CaseContext): FuzzCase[] {
  const { random } = context;
  const mutations = MUTATIONS.filter((mutation) => mutation.applies(operation));
  const cases: FuzzCase[] = [];
  for (let index = 0; index < count; index += 1) {
    const request = validRequest(operation, context);
    let session: SessionKind = random.chance(0.7) ? 'member' : 'admin';
    let origin: string | null = random.chance(0.8) ? context.origin : null;
    let kind = 'valid';
    if (index % 3 !== 0 && mutations.length) {
      const mutation = mutations[(index + random.int(0, mutations.length - 1)) % mutations.length]!;
      kind = mutation.kind;
      const change = mutation.apply(request, operation, context);
      if (change?.session) session = change.session;
      if (change && change.origin !== undefined) origin = change.origin;
    }
    cases.push(toCase(operation, request, kind, context, session, origin));
  }
  return cases;
}
