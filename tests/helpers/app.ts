import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, listenApp } from '../../server/src/app/http-app.ts';
import type { AppDeps } from '../../server/src/domains/deps.ts';
import { loadEnv, type Env } from '../../server/src/platform/env.ts';
import { createLogger } from '../../server/src/platform/logger.ts';
import { createDeps } from '../../server/src/app/deps.ts';
import type { Context } from '../../server/src/http/trpc.ts';
import { createCaller } from '../../server/src/http/router.ts';
import type { PublicUser } from '@clipshift/shared';
import { createTestDatabase, type TestDatabase } from './db.ts';
import { captureLevel, errorLogDestination } from './error-logs.ts';

export interface TestApp {
  deps: AppDeps;
  database: TestDatabase;
  close(): Promise<void>;
}

/**
 * AppDeps over a fresh database (or over `options.database`, as an app started again on the data
 * an earlier one left), with configuration from `env` on top of test defaults.
 */
export async function createTestApp(env: Record<string, string> = {}, options: { database?: TestDatabase } = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const config: Env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: `/tmp/clipshift-test-${database.name}`,
    PUBLIC_URL: 'http://localhost:3000',
    REGISTRATION_MODE: 'invite',
    ...env,
  });
  // Error lines are recorded, and fail the test unless it expects them (error-logs.ts).
  const logger = createLogger(captureLevel(), errorLogDestination());
  const deps = createDeps(config, database.db, logger, { appSecret: 'test-secret-test-secret-test-secret-0123' });
  return {
    deps,
    database,
    close: async () => {
      await deps.transcriber?.close();
      // A database lent by the caller stays open for the caller.
      if (!options.database) await database.close();
    },
  };
}

export interface CallerOptions {
  user?: PublicUser | null;
  sessionId?: string | null;
  ip?: string;
  /** The clipshift_device cookie the browser sends. */
  deviceCookie?: string;
}

export interface RecordedCookies {
  set: { token: string; expiresAt: Date }[];
  cleared: number;
  /** Device cookies set, in order. */
  device: { value: string; expiresAt: Date }[];
  /** Retry-After values set, in order. */
  retryAfter: number[];
}

/** A tRPC caller as a request from `ip` with `user` signed in would get one. */
export function callerFor(deps: AppDeps, options: CallerOptions = {}) {
  const cookies: RecordedCookies = { set: [], cleared: 0, device: [], retryAfter: [] };
  const ctx: Context = {
    deps,
    user: options.user ?? null,
    sessionId: options.sessionId ?? null,
    auth: { kind: 'session' },
    meta: { ip: options.ip ?? '127.0.0.1', userAgent: 'vitest', deviceCookie: options.deviceCookie },
    response: {
      setSessionCookie: (token, expiresAt) => cookies.set.push({ token, expiresAt }),
      clearSessionCookie: () => {
        cookies.cleared += 1;
      },
      setDeviceCookie: (value, expiresAt) => cookies.device.push({ value, expiresAt }),
      setRetryAfter: (seconds) => cookies.retryAfter.push(seconds),
    },
  };
  return { api: createCaller(ctx), cookies };
}

export interface TestServer {
  baseUrl: string;
  close(): Promise<void>;
}

/** The real Express app on a free loopback port. */
export async function startTestServer(deps: AppDeps, options: { clientDist?: string } = {}): Promise<TestServer> {
  const server: Server = await listenApp(createApp(deps, options), 0, '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The real Express app on a loopback port taken before the app is made, so that PUBLIC_URL is the
 * server's own origin: what the app hands a platform to fetch (a media link for Instagram's
 * video_url) reaches this very server.
 */
export async function createServedTestApp(env: Record<string, string> = {}): Promise<{ app: TestApp; server: TestServer }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const app = await createTestApp({ PUBLIC_URL: baseUrl, ...env });
  server.on('request', createApp(app.deps));
  return {
    app,
    server: {
      baseUrl,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    },
  };
}
