import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { z } from 'zod';
import { publicUser } from '@clipshift/shared';
import type { AppDeps } from '../../server/src/domains/deps.ts';

export const SESSION_COOKIE = 'clipshift_session';
/** The app's own origin in the test configuration (PUBLIC_URL of createTestApp). */
export const APP_ORIGIN = 'http://localhost:3000';

export interface Reply {
  status: number;
  headers: Headers;
  contentType: string;
  text: string;
  /** Parsed JSON, or undefined when the body is not JSON: read it with `field` or `bodyOf`. */
  body: unknown;
  setCookies: string[];
}

export interface RequestOptions {
  /** Sent as JSON with Content-Type: application/json. */
  json?: unknown;
  /** Sent as is (with the headers given). */
  raw?: string;
  headers?: Record<string, string>;
  /** Send the cookie jar's session (default true). */
  withCookie?: boolean;
}

/**
 * Plain fetch with a one-cookie jar: the Set-Cookie of the session is carried by hand, as a
 * script would. Every body seen is kept, so a test can check none of them leaks a secret.
 */
export class RestClient {
  cookie: string | undefined;
  readonly seen: string[];

  constructor(
    readonly baseUrl: string,
    seen: string[] = [],
  ) {
    this.seen = seen;
  }

  /** A second browser talking to the same server, sharing the record of bodies seen. */
  fresh(): RestClient {
    return new RestClient(this.baseUrl, this.seen);
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    } else if (options.raw !== undefined) {
      body = options.raw;
    }
    if (options.withCookie !== false && this.cookie) headers.cookie = this.cookie;
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    this.seen.push(text);
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair] = line.split(';');
      if (!pair?.startsWith(`${SESSION_COOKIE}=`)) continue;
      const cleared = pair === `${SESSION_COOKIE}=` || /expires=Thu, 01 Jan 1970/i.test(line);
      this.cookie = cleared ? undefined : pair;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, contentType: response.headers.get('content-type') ?? '', text, body: parsed, setCookies };
  }

  get(path: string, options?: RequestOptions) {
    return this.request('GET', path, options);
  }

  post(path: string, json?: unknown, options: RequestOptions = {}) {
    return this.request('POST', path, json === undefined ? options : { ...options, json });
  }

  async login(username: string, password: string): Promise<Reply> {
    const reply = await this.post('/api/login', { username, password });
    expect(reply.status, reply.text).toBe(200);
    expect(this.cookie).toBeDefined();
    return reply;
  }
}

/**
 * A value inside a JSON body by its path, e.g. field(reply, 'error', 'data', 'restCode'), or
 * undefined where there is none: for assertions, which need no type.
 */
export function field(reply: { body: unknown }, ...path: (string | number)[]): unknown {
  let value = reply.body;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/** The JSON body as a schema of the app describes it, typed; the test fails when it does not fit. */
export function bodyOf<T>(reply: { body: unknown; text: string }, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(reply.body);
  if (!parsed.success) expect.fail(`unexpected body ${reply.text.slice(0, 300)}: ${parsed.error.message}`);
  return parsed.data;
}

/** The id of the user a client is signed in as. */
export async function userIdOf(client: RestClient): Promise<string> {
  return bodyOf(await client.get('/api/check-auth'), z.object({ user: publicUser })).user.id;
}

/** The contract's error body: the same human text in error and message, and a machine code. */
export function errorBody(code: string, message: string, extra: Record<string, unknown> = {}) {
  return { error: message, message, code, ...extra };
}

/** Forgets every throttle window, so that tests of one file do not spend each other's attempts. */
export async function resetThrottles(deps: AppDeps): Promise<void> {
  await sql`delete from rate_limits`.execute(deps.db);
  await sql`delete from login_account_locks`.execute(deps.db);
}

/** No body ever shows a stack trace, a password hash or any of the given secrets. */
export function expectNoSecrets(bodies: string[], secrets: string[]): void {
  expect(bodies.length).toBeGreaterThan(0);
  for (const text of bodies) {
    expect(text).not.toMatch(/\n\s+at /);
    expect(text).not.toMatch(/\.ts:\d+/);
    expect(text).not.toContain('$argon2');
    expect(text).not.toContain('password_hash');
    expect(text).not.toContain('secret_hash');
    for (const secret of secrets) expect(text).not.toContain(secret);
  }
}

export const ADMIN = { username: 'admin', password: 'admin password 123' };
export const MEMBER = { username: 'member', password: 'member password 456' };

/**
 * Over HTTP only: the first account (administrator) registers, makes an invite code, a second
 * account registers with it, and both sign in. Returns a signed-in client for each.
 */
export async function adminAndMember(baseUrl: string, seen: string[] = []): Promise<{ admin: RestClient; member: RestClient }> {
  const admin = new RestClient(baseUrl, seen);
  expect((await admin.post('/api/register', ADMIN)).status).toBe(201);
  await admin.login(ADMIN.username, ADMIN.password);
  const invite = await admin.post('/api/admin/invite-codes/generate', { days_valid: 1 });
  expect(invite.status).toBe(201);
  const member = admin.fresh();
  expect((await member.post('/api/register', { ...MEMBER, invite_code: field(invite, 'code') })).status).toBe(201);
  await member.login(MEMBER.username, MEMBER.password);
  return { admin, member };
}

export interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** Parsed JSON, or undefined when the body is not JSON: read it with `field` or `bodyOf`. */
  body: unknown;
}

/**
 * One request through node's http module, which sends the path and body exactly as given: fetch
 * would normalise a bad %-escape or refuse a NUL byte before it left the test.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<RawReply> {
  const { hostname, port } = new URL(baseUrl);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const headers = { ...options.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body: parsed });
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}
