import { z } from 'zod';
import { appRouter } from '../trpc/router.ts';
import { FILE_ROUTES, REST_ROUTES, type RestRoute } from './routes.ts';

type JsonSchema = Record<string, unknown>;

const errorBody: JsonSchema = {
  type: 'object',
  required: ['error', 'message', 'code'],
  properties: {
    error: { type: 'string', description: 'The human message' },
    message: { type: 'string', description: 'The same human message' },
    code: { type: 'string', description: 'Stable machine code, e.g. BAD_REQUEST' },
    issues: {
      type: 'array',
      items: { type: 'object', properties: { path: { type: 'array', items: {} }, message: { type: 'string' } } },
    },
  },
};

interface ProcedureSchemas {
  input?: z.ZodType;
  output?: z.ZodType;
}

function schemasOf(route: RestRoute): ProcedureSchemas {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { inputs: unknown[]; output?: unknown } }>;
  const def = procedures[route.procedure]?._def;
  const input = def?.inputs[0];
  const output = def?.output;
  return {
    input: input instanceof z.ZodType ? input : undefined,
    output: output instanceof z.ZodType ? output : undefined,
  };
}

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

function parametersOf(route: Pick<RestRoute, 'path' | 'method'>, input: z.ZodType | undefined): JsonSchema[] {
  const pathParams = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (route.method !== 'GET' || !input) return pathParams;
  const schema = toJsonSchema(input, 'input');
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const queryParams = Object.entries(properties)
    .filter(([name]) => !pathParams.some((param) => param.name === name))
    .map(([name, propertySchema]) => ({ name, in: 'query', required: false, schema: propertySchema }));
  return [...pathParams, ...queryParams];
}

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Invalid input',
  '401': 'No valid session',
  '403': 'Forbidden (cross-site request, or not allowed)',
  '404': 'Not found',
  '409': 'Conflict',
  '413': 'Body is too large',
  '415': 'Body is not JSON',
  '429': 'Too many attempts',
};

/** Which error statuses a route can answer: 401 needs a session; 403 comes from the Origin check
 * (state-changing methods) or from an administrator-only route; 413/415 need a body. */
function answersStatus(route: RestRoute, status: string): boolean {
  const changesState = route.method !== 'GET';
  const hasBody = route.method === 'POST' || route.method === 'PUT';
  if (status === '401') return route.auth;
  if (status === '403') return changesState || route.path.startsWith('/admin/');
  if (status === '413' || status === '415') return hasBody;
  return true;
}

/** OpenAPI 3.1, generated from the route table and the procedures' own zod schemas. */
export function buildOpenApiDocument(publicUrl: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of REST_ROUTES) {
    const { input, output } = schemasOf(route);
    const responses: Record<string, unknown> = {
      [String(route.status ?? 200)]: {
        description: 'Success',
        content: { 'application/json': { schema: output ? toJsonSchema(output, 'output') : {} } },
      },
    };
    for (const [status, description] of Object.entries(ERROR_STATUSES)) {
      if (!answersStatus(route, status)) continue;
      responses[status] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    }
    const operation: Record<string, unknown> = {
      operationId: route.procedure,
      tags: [route.tag],
      summary: route.summary,
      parameters: parametersOf(route, input),
      responses,
      ...(route.auth ? { security: [{ sessionCookie: [] }] } : {}),
    };
    if (route.method !== 'GET' && route.method !== 'DELETE' && input) {
      operation.requestBody = {
        required: false,
        content: { 'application/json': { schema: toJsonSchema(input, 'input') } },
      };
    }
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation;
  }
  for (const route of FILE_ROUTES) {
    paths[route.path] ??= {};
    paths[route.path]!.get = {
      operationId: route.path,
      tags: [route.tag],
      summary: route.summary,
      parameters: parametersOf({ ...route, method: 'GET' }, undefined),
      ...(route.auth ? { security: [{ sessionCookie: [] }] } : {}),
      responses: {
        '200': { description: 'The file', content: { [route.contentType]: { schema: { type: 'string', format: 'binary' } } } },
        ...(route.contentType === 'video/mp4' ? { '206': { description: 'The requested byte range' } } : {}),
        ...(route.auth ? { '401': { description: 'No valid session' }, '404': { description: 'Not found' } } : {}),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Clipshift API',
      version: '1.0.0',
      description: 'Every route is the same procedure the web app calls over tRPC. Errors answer {error, message, code}.',
    },
    servers: [{ url: `${publicUrl}/api` }],
    components: {
      schemas: { Error: errorBody },
      securitySchemes: { sessionCookie: { type: 'apiKey', in: 'cookie', name: 'clipshift_session' } },
    },
    paths,
  };
}
