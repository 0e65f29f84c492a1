import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../../domains/deps.ts';
import { createRequestContext } from '../context.ts';
import { createCaller } from '../router.ts';
import { REST_ROUTES, toExpressPath, type ErrorStatus, type RestRequestParts, type RestRoute } from './routes.ts';
import { badRequest } from '../../platform/errors.ts';
import { appErrorOf, statusOf } from '../errors.ts';
import { sendError } from './errors.ts';
import { schemasOf } from './openapi.ts';

type Callable = (input: unknown) => Promise<unknown>;

/** Finds "a.b" on a tRPC caller; the route table's type guarantees the path exists. */
function procedureAt(caller: ReturnType<typeof createCaller>, path: string): Callable {
  let target: unknown = caller;
  for (const segment of path.split('.')) target = (target as Record<string, unknown>)[segment];
  if (typeof target !== 'function') throw new Error(`No procedure at ${path}`);
  return target as Callable;
}

/** Two spellings of one path parameter: streamer names and ids compare without case or surrounding space. */
const sameParam = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** A body that repeats a path parameter (bodyMayRepeat) must repeat it unchanged. */
function checkRepeatedParams(route: RestRoute, { params, body }: RestRequestParts): void {
  if (!route.bodyMayRepeat || !body || typeof body !== 'object' || Array.isArray(body)) return;
  for (const [name, message] of Object.entries(route.bodyMayRepeat)) {
    const sent = (body as Record<string, unknown>)[name];
    if (sent !== undefined && (typeof sent !== 'string' || !sameParam(sent, params[name] ?? ''))) throw badRequest(message);
  }
}

/**
 * The procedure's input: the query string (GET, DELETE) or the JSON body (POST, PUT), with the path
 * parameters on top; nothing for a procedure that takes no input.
 */
function procedureInput(route: RestRoute, takesInput: boolean, parts: RestRequestParts): unknown {
  if (!takesInput) return undefined;
  const { params, query, body } = parts;
  if (route.method === 'GET' || route.method === 'DELETE') {
    const merged = { ...query, ...params };
    return Object.keys(merged).length ? merged : undefined;
  }
  checkRepeatedParams(route, parts);
  return bodyWithParams(body, params);
}

/**
 * A JSON body as a procedure's input: the path parameters on top of an object body (an absent body
 * is an empty one); any other body goes as it is, for the input schema to refuse.
 */
export function bodyWithParams(body: unknown, params: Record<string, string>): unknown {
  const hasParams = Object.keys(params).length > 0;
  if (body === undefined) return hasParams ? { ...params } : {};
  if (!hasParams || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return { ...(body as Record<string, unknown>), ...params };
}

/**
 * What this route adds to the body of an expected failure: its declared constant fields, and the
 * fields its error body names taken from the error's details (health's status, a post's uploads).
 */
function routeErrorFields(route: RestRoute, error: unknown): Record<string, unknown> | undefined {
  const appError = appErrorOf(error);
  const meaning = appError && route.errors?.[statusOf(appError) as ErrorStatus];
  if (!appError || !meaning || typeof meaning === 'string') return undefined;
  const fields: Record<string, unknown> = { ...meaning.fields };
  for (const name of Object.keys(meaning.body.shape)) {
    if (appError.details?.[name] !== undefined) fields[name] = appError.details[name];
  }
  return fields;
}

async function handle(deps: AppDeps, route: RestRoute, takesInput: boolean, req: Request, res: Response): Promise<void> {
  try {
    const ctx = await createRequestContext(deps, req, res);
    const parts: RestRequestParts = {
      params: req.params as Record<string, string>,
      query: req.query as Record<string, unknown>,
      body: req.body,
    };
    const input = procedureInput(route, takesInput, parts);
    const result = await procedureAt(createCaller(ctx), route.procedure)(input);
    res.status(route.status ?? 200).json(result);
  } catch (error) {
    await sendError(deps, req, res, error, routeErrorFields(route, error));
  }
}

/** Publishes every route of the table as plain REST over the same procedures tRPC serves. */
export function createRestRouter(deps: AppDeps): Router {
  const router = Router();
  for (const route of REST_ROUTES) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    const takesInput = schemasOf(route).input !== undefined;
    router[method](toExpressPath(route.path), (req, res) => handle(deps, route, takesInput, req, res));
  }
  return router;
}
