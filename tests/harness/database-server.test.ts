// The tests' own PostgreSQL resolution: TEST_DATABASE_URL, then Docker (testcontainers), then the
// embedded PostgreSQL from npm, which a bare machine (Node and npm only) relies on.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { processAlive } from '../../server/src/platform/db/embedded.ts';
import { dockerAnswers, resolveDatabaseServer, type DatabaseServer, type DatabaseSources } from '../helpers/database-server.ts';
import { startTestPostgres, testPostgresRoot } from '../helpers/test-postgres.ts';
import { waitUntil } from '../helpers/wait.ts';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'clipshift-db-resolution-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function server(source: string): DatabaseServer {
  return { url: `postgres://${source}`, source, stop: async () => {} };
}

function sources(overrides: Partial<DatabaseSources>): DatabaseSources & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    env: {},
    dockerAnswers: async () => false,
    startContainer: async () => server('container'),
    startEmbedded: async () => server('embedded'),
    warn: (line) => warnings.push(line),
    warnings,
    ...overrides,
  };
}

describe('which PostgreSQL the tests use', () => {
  it('takes TEST_DATABASE_URL first, without asking Docker', async () => {
    const dockerAsked = vi.fn(async () => true);
    const found = await resolveDatabaseServer(sources({ env: { TEST_DATABASE_URL: 'postgres://given/postgres' }, dockerAnswers: dockerAsked }));
    expect(found).toMatchObject({ url: 'postgres://given/postgres', source: 'TEST_DATABASE_URL' });
    expect(dockerAsked).not.toHaveBeenCalled();
  });

  it('takes a testcontainers PostgreSQL when Docker answers', async () => {
    expect((await resolveDatabaseServer(sources({ dockerAnswers: async () => true }))).source).toBe('container');
  });

  it('starts the embedded PostgreSQL when there is no Docker, without loading testcontainers', async () => {
    const startContainer = vi.fn(async () => server('container'));
    expect((await resolveDatabaseServer(sources({ startContainer }))).source).toBe('embedded');
    expect(startContainer).not.toHaveBeenCalled();
  });

  it('falls back to the embedded PostgreSQL, with one warning line, when Docker answers but the container fails', async () => {
    const found = sources({
      dockerAnswers: async () => true,
      startContainer: async () => {
        throw new Error('pull access denied for postgres\nmore detail');
      },
    });
    expect((await resolveDatabaseServer(found)).source).toBe('embedded');
    expect(found.warnings).toEqual(['testcontainers could not start PostgreSQL (pull access denied for postgres); using the embedded PostgreSQL instead']);
  });

  it('fails with a line naming every fix when even the embedded PostgreSQL cannot start', async () => {
    const failing = sources({
      startEmbedded: async () => {
        throw new Error('No embedded PostgreSQL for freebsd-x64');
      },
    });
    await expect(resolveDatabaseServer(failing)).rejects.toThrow(
      'No PostgreSQL for the tests: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres), run a Docker engine, ' +
        'or fix the embedded PostgreSQL (No embedded PostgreSQL for freebsd-x64)',
    );
  });
});

describe('asking whether Docker answers', () => {
  function listenOnSocket(socketPath: string, status: number): Promise<Server> {
    const fake = createServer((request, response) => {
      response.writeHead(request.url === '/_ping' ? status : 404).end('OK');
    });
    return new Promise((resolve) => fake.listen(socketPath, () => resolve(fake)));
  }

  const probe = (sockets: string[], env: NodeJS.ProcessEnv = {}) => ({ env, configFile: path.join(scratch, 'no-such-config'), sockets });

  it('says yes when a socket answers the engine ping', async () => {
    const socket = path.join(scratch, 'answering.sock');
    const engine = await listenOnSocket(socket, 200);
    try {
      expect(await dockerAnswers(probe([path.join(scratch, 'missing.sock'), socket]))).toBe(true);
    } finally {
      engine.close();
    }
  });

  it('says no when no socket exists or the one there does not answer the ping with 200', async () => {
    const socket = path.join(scratch, 'broken.sock');
    const engine = await listenOnSocket(socket, 500);
    try {
      expect(await dockerAnswers(probe([path.join(scratch, 'missing.sock'), socket]))).toBe(false);
    } finally {
      engine.close();
    }
  });

  it('takes DOCKER_HOST or a testcontainers configuration at its word', async () => {
    expect(await dockerAnswers(probe([], { DOCKER_HOST: 'tcp://127.0.0.1:2375' }))).toBe(true);
    const configFile = path.join(scratch, 'testcontainers.properties');
    writeFileSync(configFile, 'docker.host=unix:///var/run/docker.sock\n');
    expect(await dockerAnswers({ env: {}, configFile, sockets: [] })).toBe(true);
  });
});

describe('the embedded PostgreSQL of a test run', () => {
  it('is a superuser server that clones databases from a template, and leaves nothing when stopped', async () => {
    const started = await startTestPostgres();
    const admin = new pg.Client({ connectionString: started.url });
    try {
      await admin.connect();
      const { rows } = await admin.query<{ rolsuper: boolean; fsync: string }>(
        "select rolsuper, current_setting('fsync') as fsync from pg_roles where rolname = current_user",
      );
      expect(rows).toEqual([{ rolsuper: true, fsync: 'off' }]);
      await admin.query('create database harness_source');
      await admin.query('create database harness_copy template harness_source');
      const copies = await admin.query('select datname from pg_database where datname = $1', ['harness_copy']);
      expect(copies.rowCount).toBe(1);
    } finally {
      await admin.end();
      await started.stop();
    }
    expect(processAlive(started.pid)).toBe(false);
    expect(existsSync(started.runDir)).toBe(false);
  });

  it('is stopped and removed by its watchdog when the run that started it is killed', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures/postgres-child.ts')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const started = await new Promise<{ pid: number; runDir: string }>((resolve, reject) => {
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('\n')) resolve(JSON.parse(output.split('\n')[0]!) as { pid: number; runDir: string });
      });
      child.once('exit', (code) => reject(new Error(`postgres child exited early (${code})`)));
    });
    expect(processAlive(started.pid)).toBe(true);
    child.kill('SIGKILL');
    await waitUntil(() => !processAlive(started.pid) && !existsSync(started.runDir), {
      message: 'the watchdog to stop PostgreSQL and remove its run folder',
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect(processAlive(started.pid)).toBe(false);
    expect(existsSync(started.runDir)).toBe(false);
  });

  it('removes what a run that died with its watchdog left behind', async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.once('exit', resolve));
    const leftover = path.join(testPostgresRoot(), `run-${dead.pid}-1`);
    mkdirSync(path.join(leftover, 'postgres'), { recursive: true });
    writeFileSync(path.join(leftover, 'postgres', 'PG_VERSION'), '18\n');
    const started = await startTestPostgres();
    await started.stop();
    expect(existsSync(leftover)).toBe(false);
  });
});
