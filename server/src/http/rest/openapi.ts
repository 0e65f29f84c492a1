import { z } from 'zod';
import { accessOf, type Access } from '../access.ts';
import { appRouter } from '../router.ts';
import { DIRECT_ROUTES, REST_ROUTES, type DirectRoute, type ErrorMeaning, type ErrorStatus, type RestRoute } from './routes.ts';

type JsonSchema = Record<string, unknown>;

const ERROR_REF = '#/components/schemas/Error';

const errorBody: JsonSchema = {
  type: 'object',
  required: ['error', 'message', 'code'],
  properties: {
    error: { type: 'string', description: 'The human message' },
    message: { type: 'string', description: 'The same human message' },
    code: { type: 'string', description: 'Stable machine code, e.g. BAD_REQUEST' },
    issues: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'array', items: { type: ['string', 'integer'] } }, message: { type: 'string' } },
      },
    },
  },
};

interface ProcedureSchemas {
  input?: z.ZodType;
  output?: z.ZodType;
}

/** A procedure's output is checked through validated(): the zod schema it was made from. */
function outputSchemaOf(output: unknown): z.ZodType | undefined {
  if (output instanceof z.ZodType) return output;
  if (typeof output === 'object' && output !== null && 'schema' in output && output.schema instanceof z.ZodType) return output.schema;
  return undefined;
}

/** The zod input and output schemas of a route's procedure (a procedure without input has none). */
export function schemasOf(route: Pick<RestRoute, 'procedure'>): ProcedureSchemas {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { inputs: unknown[]; output?: unknown } }>;
  const def = procedures[route.procedure]?._def;
  const input = def?.inputs[0];
  const output = def?.output;
  return {
    input: input instanceof z.ZodType ? input : undefined,
    output: outputSchemaOf(output),
  };
}

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

const pathParamsOf = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);

const propertiesOf = (schema: JsonSchema) => (schema.properties ?? {}) as Record<string, JsonSchema>;

/** A path parameter: any non-empty segment (an empty one is another path). */
const pathParameter = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string', minLength: 1 } });

/**
 * A query-string whole number (shared `queryInt`): digits only, whatever JSON number tRPC also
 * accepts. Its bounds live on the output side of the schema, which is where they are read.
 */
function isDigitString(schema: JsonSchema): boolean {
  const options = schema.anyOf as JsonSchema[] | undefined;
  return Boolean(options?.some((option) => option.type === 'string' && option.pattern === '^\\d+$'));
}

function digitStringSchema(output: JsonSchema | undefined): JsonSchema {
  const min = output?.minimum;
  const max = output?.maximum;
  const range = typeof min === 'number' && typeof max === 'number' ? ` from ${min} to ${max}` : '';
  return {
    type: 'string',
    pattern: '^[0-9]+$',
    description: `A whole number${range}, in digits`,
    ...(output?.default !== undefined ? { default: String(output.default) } : {}),
  };
}

function queryParameters(route: RestRoute, input: z.ZodType): JsonSchema[] {
  const inputProperties = propertiesOf(toJsonSchema(input, 'input'));
  const outputProperties = propertiesOf(toJsonSchema(input, 'output'));
  const pathParams = pathParamsOf(route.path);
  return Object.entries(inputProperties)
    .filter(([name]) => !pathParams.includes(name))
    .map(([name, schema]) => ({
      name,
      in: 'query',
      required: false,
      schema: isDigitString(schema) ? digitStringSchema(outputProperties[name]) : schema,
    }));
}

function parametersOf(route: RestRoute, input: z.ZodType | undefined): JsonSchema[] {
  const pathParams = pathParamsOf(route.path).map(pathParameter);
  if ((route.method === 'GET' || route.method === 'DELETE') && input) return [...pathParams, ...queryParameters(route, input)];
  return pathParams;
}

/**
 * The JSON body the client sends: the procedure's input without the path parameters (the adapter
 * puts those in), except the ones the body may repeat, which stay as optional fields.
 */
function requestBodyOf(route: Pick<RestRoute, 'path' | 'bodyMayRepeat'>, input: z.ZodType): JsonSchema | undefined {
  const schema = toJsonSchema(input, 'input');
  const pathParams = pathParamsOf(route.path);
  const properties: Record<string, JsonSchema> = {};
  for (const [name, property] of Object.entries(propertiesOf(schema))) {
    const repeated = route.bodyMayRepeat?.[name];
    if (!pathParams.includes(name)) properties[name] = property;
    else if (repeated) properties[name] = { ...property, description: `If sent, the same as the path's ${name} (else 400 '${repeated}')` };
  }
  // Nothing left to send (e.g. POST /downloads/stop/{name}): the route takes no body.
  if (!Object.keys(properties).length) return undefined;
  const required = ((schema.required ?? []) as string[]).filter((name) => !pathParams.includes(name));
  const body: JsonSchema = { ...schema, properties, ...(required.length ? { required } : {}) };
  if (!required.length) delete body.required;
  return {
    required: required.length > 0,
    content: { 'application/json': { schema: body } },
  };
}

/** The general meaning of each error status, where a route does not say more. */
const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Invalid input, or a request that cannot be decoded',
  401: 'No valid session, or an API token that is unknown, revoked or expired (WWW-Authenticate: Bearer)',
  403: "Forbidden (cross-site request, or not allowed; an API token beyond its scopes: 'This token lacks the {scope} scope')",
  404: 'Not found',
  405: 'Method not allowed (Allow names the one that is)',
  409: 'Conflict',
  412: 'Precondition failed',
  413: 'Body is too large',
  415: 'Body is not JSON',
  416: 'Range not satisfiable',
  429: 'Too many attempts: try again after Retry-After seconds',
  431: 'The request headers are too large (over 16 KB in all): refused before any route',
  502: 'A service this route depends on failed',
  503: 'The database is unavailable right now: try again in a moment',
};

interface StatusTraits {
  method: string;
  path: string;
  auth: boolean;
  admin?: boolean;
  throttled?: boolean;
  database?: boolean;
  errors?: Partial<Record<ErrorStatus, ErrorMeaning>>;
  /** What an API token needs to call the route (access.ts). */
  access: Access;
}

/**
 * Every error status a route answers, derived from one place: 400 and 431 for any request (a URL
 * that cannot be decoded, headers beyond node's limit are refused before routing); 401 where a session is needed; 403 for
 * state-changing methods (the Origin check) and administrator routes; 413/415 where a body is read
 * (state-changing methods); 429 where attempts are limited; 503 wherever the database is read
 * (an outage); and what the route itself declares.
 */
export function errorStatusesOf(route: StatusTraits): ErrorStatus[] {
  const changesState = route.method !== 'GET';
  const statuses = new Set<ErrorStatus>([400, 431]);
  if (route.auth) statuses.add(401);
  if (changesState || route.admin) statuses.add(403);
  if (changesState) {
    statuses.add(413);
    statuses.add(415);
  }
  if (route.throttled) statuses.add(429);
  // A bearer token: 401 when invalid (429 past the failures of an address or the token's budget),
  // 403 beyond its scopes or where tokens are never taken.
  if (route.access !== 'public') {
    statuses.add(401);
    statuses.add(403);
    statuses.add(429);
  }
  if (route.database !== false) statuses.add(503);
  for (const status of Object.keys(route.errors ?? {})) statuses.add(Number(status) as ErrorStatus);
  return [...statuses].sort((a, b) => a - b);
}

function errorSchema(meaning: ErrorMeaning | undefined): JsonSchema {
  if (!meaning || typeof meaning === 'string') return { $ref: ERROR_REF };
  // The added fields only: the body has error, message and code besides them.
  const { additionalProperties: _closed, ...added } = toJsonSchema(meaning.body, 'output');
  return { allOf: [{ $ref: ERROR_REF }, added] };
}

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'string', pattern: '^[0-9]+$' } } };

function errorResponse(route: Pick<StatusTraits, 'errors'>, status: ErrorStatus, pages: DirectRoute['errorPages'] = {}): JsonSchema {
  const meaning = route.errors?.[status];
  const description = typeof meaning === 'string' ? meaning : (meaning?.description ?? ERROR_DESCRIPTIONS[status]);
  const page = pages[status];
  const content: JsonSchema = {};
  if (page) content[page.content] = { schema: { type: 'string' } };
  if (!page || page.json) content['application/json'] = { schema: errorSchema(meaning) };
  return { description, content, ...(status === 429 ? { headers: RETRY_AFTER } : {}) };
}

/** A route's class for API tokens: the procedure's, or the direct route's operationId. */
const restAccess = (route: RestRoute): Access => accessOf(route.procedure, route.method === 'GET' ? 'query' : 'mutation');
const directAccess = (route: DirectRoute): Access => accessOf(route.operationId, route.method === 'GET' ? 'query' : 'mutation');

/** Who may call: a session cookie, and an API token with the scope named, unless the route takes no token. */
function securityOf(auth: boolean, access: Access): JsonSchema {
  if (!auth) return {};
  if (access === 'token') return { security: [{ apiToken: [] }], 'x-token-access': access };
  const token = access === 'session' || access === 'public' ? [] : [{ apiToken: [access] }];
  return { security: [{ sessionCookie: [] }, ...token], 'x-token-access': access };
}

function restOperation(route: RestRoute): JsonSchema {
  const { input, output } = schemasOf(route);
  const access = restAccess(route);
  const responses: Record<string, unknown> = {
    [String(route.status ?? 200)]: {
      description: 'Success',
      content: { 'application/json': { schema: output ? toJsonSchema(output, 'output') : {} } },
    },
  };
  for (const status of errorStatusesOf({ ...route, access })) responses[status] = errorResponse(route, status);
  const body = route.method !== 'GET' && route.method !== 'DELETE' && input ? requestBodyOf(route, input) : undefined;
  return {
    operationId: route.procedure,
    tags: [route.tag],
    summary: route.summary,
    parameters: parametersOf(route, input),
    ...(body ? { requestBody: body } : {}),
    responses,
    ...securityOf(route.auth, access),
  };
}

function directOperation(route: DirectRoute): JsonSchema {
  const access = directAccess(route);
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(route.answers)) {
    const headers = Object.fromEntries(Object.entries(answer.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));
    responses[status] = {
      description: answer.description,
      ...(answer.content.length ? { content: Object.fromEntries(answer.content.map((type) => [type, { schema: contentSchema(type) }])) } : {}),
      ...(Object.keys(headers).length ? { headers } : {}),
    };
  }
  for (const status of errorStatusesOf({ ...route, access })) responses[status] = errorResponse(route, status, route.errorPages);
  const body = route.body ? requestBodyOf(route, route.body) : rawBodyOf(route.rawBody);
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    parameters: [...pathParamsOf(route.path).map(pathParameter), ...route.parameters.map((param) => ({ ...param, required: false }))],
    ...(body ? { requestBody: body } : {}),
    responses,
    ...securityOf(route.auth, access),
  };
}

function rawBodyOf(raw: DirectRoute['rawBody']): JsonSchema | undefined {
  if (!raw) return undefined;
  return { required: true, description: raw.description, content: Object.fromEntries(raw.content.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) };
}

function contentSchema(type: string): JsonSchema {
  if (type === 'application/json') return { type: 'object' };
  if (type.startsWith('text/')) return { type: 'string' };
  return { type: 'string', format: 'binary' };
}

/** OpenAPI 3.1, generated from the route tables and the procedures' own zod schemas. */
export function buildOpenApiDocument(publicUrl: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (path: string, method: string, operation: JsonSchema) => {
    paths[path] ??= {};
    paths[path][method.toLowerCase()] = operation;
  };
  for (const route of REST_ROUTES) add(route.path, route.method, restOperation(route));
  for (const route of DIRECT_ROUTES) add(route.path, route.method, directOperation(route));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Clipshift API',
      version: '1.0.0',
      description:
        "Every JSON route is the same procedure the web app calls over tRPC. Errors answer {error, message, code}. Unknown body fields are ignored; numbers in a body are JSON numbers, in a query string digits. Scripts and AI assistants sign in with an API token (Settings → API tokens, or POST /tokens from a session): `Authorization: Bearer cs_…`. A token's scopes (read: every GET; write: streamers, downloads, clips, studio, review; post: posting and the queue; admin: invite codes) narrow what its user may do; each operation names the scope it needs in its security (apiToken) and x-token-access ('session': tokens are refused). Beyond its scopes a token gets 403 'This token lacks the {scope} scope'; an unknown, revoked or expired one 401. POST /mcp serves the same procedures as Model Context Protocol tools.",
    },
    servers: [{ url: `${publicUrl}/api` }],
    components: {
      schemas: { Error: errorBody },
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'clipshift_session' },
        apiToken: { type: 'http', scheme: 'bearer', bearerFormat: 'cs_<lookup>_<secret>', description: 'An API token; the security requirement names the scope it needs' },
      },
    },
    paths,
  };
}
