import express, { Router, type Request, type Response } from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AppDeps } from '../../domains/deps.ts';
import { databaseUnavailable, unauthorized } from '../../platform/errors.ts';
import { createRequestContext } from '../context.ts';
import { toErrorResponse } from '../errors.ts';
import { httpError, sendError } from '../rest/errors.ts';
import { createCaller } from '../router.ts';
import type { Context } from '../trpc.ts';
import { TOOLS, type Caller, type ToolSpec } from './tools.ts';

/*
 * POST /api/mcp: the Model Context Protocol over Streamable HTTP, stateless (a server and a
 * transport per request, JSON answers), for AI assistants holding an API token
 * (docs/decisions/0045-mcp-server.md). Only a bearer token is taken: a browser's cookie never
 * drives it, so no cross-site request can either.
 */

const MCP_BODY_LIMIT = '100kb';
const SERVER_INFO = { name: 'clipshift', version: '1.0.0' };
const INSTRUCTIONS =
  'Clipshift downloads Twitch clips, renders them vertical with captions, and posts them to TikTok, YouTube, Instagram and Facebook. ' +
  'Start from list_streamers and list_clips; long work (start_download, render_clip, post_clip) answers at once and names the tool to follow it with.';
const NEEDS_TOKEN = 'The MCP endpoint needs an API token: Authorization: Bearer cs_… (Settings › API tokens)';

/**
 * A schema as a tool lists it and the SDK checks it: one side of the shared schema, without its
 * transforms. Input: the procedure receives the arguments as sent and validates them itself with
 * the very same schema (its messages included). Output: the procedure's answer, transforms done.
 */
function listedSchema(schema: z.ZodObject, io: 'input' | 'output'): z.ZodType {
  return z.fromJSONSchema(z.toJSONSchema(schema, { io, unrepresentable: 'any' }));
}

/** The tools with their listed schemas, converted once: every request builds its server from them. */
let registrations: { tool: ToolSpec; input: z.ZodType | undefined; output: z.ZodType }[] | undefined;
function toolRegistrations() {
  registrations ??= TOOLS.map((tool) => ({ tool, input: tool.input && listedSchema(tool.input, 'input'), output: listedSchema(tool.output, 'output') }));
  return registrations;
}

/** A failed call as the model sees it: the route's own message (a missing scope says which). */
function toolError(error: unknown): CallToolResult {
  const { body } = toErrorResponse(error);
  return { isError: true, content: [{ type: 'text', text: body.message }], structuredContent: { error: body.message, code: body.code } };
}

async function callTool(tool: ToolSpec, caller: Caller, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    const answer = await tool.run(caller, args);
    return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.structured };
  } catch (error) {
    return toolError(error);
  }
}

/** One request's MCP server: every tool calls its procedure as the token's owner, within the token's scopes. */
function serverFor(ctx: Context): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  const caller = createCaller(ctx);
  for (const { tool, input, output } of toolRegistrations()) {
    const annotations = { title: tool.title, readOnlyHint: tool.readOnly, openWorldHint: !tool.readOnly };
    const config = { title: tool.title, description: tool.description, outputSchema: output, annotations };
    if (input) {
      server.registerTool(tool.name, { ...config, inputSchema: input }, (args: unknown) => callTool(tool, caller, (args ?? {}) as Record<string, unknown>));
    } else {
      server.registerTool(tool.name, config, () => callTool(tool, caller, {}));
    }
  }
  return server;
}

/** The token's context, or the 401 (with WWW-Authenticate) a missing or refused one gets. */
async function tokenContext(deps: AppDeps, req: Request, res: Response): Promise<Context> {
  const ctx = await createRequestContext(deps, req, res);
  // The token (or a cookie, which is then refused) could not be looked up: a 503, as on every route.
  if (ctx.sessionUnknown) throw databaseUnavailable();
  if (ctx.auth.kind !== 'token') {
    res.setHeader('WWW-Authenticate', 'Bearer realm="clipshift"');
    throw unauthorized(NEEDS_TOKEN);
  }
  if (ctx.tokenRefusal) throw ctx.tokenRefusal;
  return ctx;
}

async function handleMcp(deps: AppDeps, req: Request, res: Response): Promise<void> {
  let ctx: Context;
  try {
    ctx = await tokenContext(deps, req, res);
  } catch (error) {
    await sendError(deps, req, res, error);
    return;
  }
  const server = serverFor(ctx);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

/** Stateless: no stream to open (GET) and no session to end (DELETE); MCP clients expect 405 for both. */
function methodNotAllowed(deps: AppDeps) {
  return (req: Request, res: Response) => {
    res.setHeader('Allow', 'POST');
    void sendError(deps, req, res, httpError('METHOD_NOT_SUPPORTED', 'This MCP server is stateless: POST only'));
  };
}

/**
 * Mounted before the JSON-only and cross-site guards: MCP clients send JSON with the Accept header
 * the protocol asks for, and assistants in a browser send their own Origin, which a bearer token
 * (never sent by a browser on its own) makes harmless.
 */
export function mcpRouter(deps: AppDeps): Router {
  const router = Router();
  router.post('/mcp', express.json({ limit: MCP_BODY_LIMIT, strict: false }), (req, res, next) => {
    handleMcp(deps, req, res).catch(next);
  });
  router.get('/mcp', methodNotAllowed(deps));
  router.delete('/mcp', methodNotAllowed(deps));
  return router;
}
