import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { PRODUCTION_FILES } from '../../scripts/build-server.mjs';
import { loadEnv } from '../../server/src/platform/env.ts';

/*
 * There is no Docker here: the compose file and the Dockerfile are checked as text against what
 * `docker compose --profile scale config` and the image need.
 */

const service = z.object({
  image: z.string().optional(),
  build: z.string().optional(),
  profiles: z.array(z.string()).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  depends_on: z.record(z.string(), z.object({ condition: z.enum(['service_started', 'service_healthy', 'service_completed_successfully']) })).optional(),
  volumes: z.array(z.string()).optional(),
  ports: z.array(z.string()).optional(),
  healthcheck: z.object({ test: z.array(z.string()) }).optional(),
});
const composeFile = z.object({ services: z.record(z.string(), service), volumes: z.record(z.string(), z.null()) });

const compose = composeFile.parse(parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }));
type Service = z.infer<typeof service>;

/** The services `docker compose --profile <profile> up` starts (those of no profile always start). */
const servicesOf = (profile: string | null) =>
  Object.entries(compose.services).filter(([, entry]) => !entry.profiles || (profile !== null && entry.profiles.includes(profile)));

/** Compose's interpolation with the defaults the file gives (${VAR:-default}), APP_SECRET set as the user must. */
function interpolate(value: string): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::-([^}]*)|:\?[^}]*)?\}/g, (_match, name: string, fallback: string | undefined) =>
    name === 'APP_SECRET' ? 'a-secret-of-at-least-32-characters-0123' : (fallback ?? ''),
  );
}
const appEnv = (entry: Service) => Object.fromEntries(Object.entries(entry.environment ?? {}).map(([key, value]) => [key, interpolate(value)]));

describe('docker-compose.yml', () => {
  it('starts db and the all-in-one app by default, extra workers with the workers profile', () => {
    expect(servicesOf(null).map(([name]) => name).sort()).toEqual(['app', 'db']);
    expect(appEnv(compose.services.app!)).toMatchObject({ RUN_WEB: 'true', RUN_WORKER: 'true' });
    expect(appEnv(compose.services.worker!)).toMatchObject({ RUN_WEB: 'false', RUN_WORKER: 'true' });
  });

  it('passes the credentials of every provider through to the app, workers and web alike', () => {
    const providers = ['TWITCH_CLIENT_ID', 'TWITCH_CLIENT_SECRET', 'TIKTOK_CLIENT_KEY', 'TIKTOK_CLIENT_SECRET', 'YOUTUBE_CLIENT_ID', 'YOUTUBE_CLIENT_SECRET', 'INSTAGRAM_CLIENT_ID', 'INSTAGRAM_CLIENT_SECRET', 'FACEBOOK_APP_ID', 'FACEBOOK_APP_SECRET'];
    for (const service of ['app', 'worker', 'web', 'scale-worker']) {
      for (const variable of providers) expect(compose.services[service]!.environment, `${service}.${variable}`).toHaveProperty(variable);
    }
  });

  it('runs web (no jobs) and workers (no web) with STORAGE=s3 and a MinIO bucket in the scale profile', () => {
    const scale = Object.fromEntries(servicesOf('scale'));
    expect(Object.keys(scale).sort()).toEqual(['app', 'db', 'minio', 'minio-bucket', 'scale-worker', 'web']);
    const web = appEnv(scale.web!);
    const worker = appEnv(scale['scale-worker']!);
    expect(web).toMatchObject({ RUN_WEB: 'true', RUN_WORKER: 'false', STORAGE: 's3' });
    expect(worker).toMatchObject({ RUN_WEB: 'false', RUN_WORKER: 'true', STORAGE: 's3' });
    for (const variable of ['S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE']) {
      expect(web[variable], variable).toBeTruthy();
      expect(worker[variable], variable).toBe(web[variable]);
    }
    expect(web.S3_ENDPOINT).toBe('http://minio:9000');
    expect(appEnv(scale.minio!)).toMatchObject({ MINIO_ROOT_USER: web.S3_ACCESS_KEY_ID, MINIO_ROOT_PASSWORD: web.S3_SECRET_ACCESS_KEY });
    expect(scale.web!.depends_on?.['minio-bucket']?.condition).toBe('service_completed_successfully');
    // Nothing shared on disk: the bucket and the database are all web and workers share.
    expect(scale.web!.volumes ?? []).toEqual([]);
    expect(scale['scale-worker']!.volumes ?? []).toEqual([]);
  });

  it('gives every app service a configuration the server accepts, and refers only to what it declares', () => {
    for (const [name, entry] of Object.entries(compose.services)) {
      for (const dependency of Object.keys(entry.depends_on ?? {})) expect(compose.services, `${name} depends on ${dependency}`).toHaveProperty(dependency);
      for (const mount of entry.volumes ?? []) expect(compose.volumes, `${name} mounts ${mount}`).toHaveProperty(mount.split(':')[0]!);
      for (const [key, value] of Object.entries(entry.environment ?? {})) {
        // A bare $ would be read as interpolation by compose; $$ is a literal one.
        expect(value.replace(/\$\$|\$\{[A-Z0-9_]+(?::-[^}]*|:\?[^}]*)?\}/g, ''), `${name}.${key}`).not.toContain('$');
      }
      if (entry.build) expect(() => loadEnv(appEnv(entry)), name).not.toThrow();
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync('Dockerfile', 'utf8').replace(/\\\n/g, ' ');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const final = stages.at(-1)!;

  it('runs the bundle with node on the current Node LTS, as a non-root user, with a health check', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-bookworm-slim$/m);
    expect(stages.every((stage) => stage.startsWith('${NODE_IMAGE}'))).toBe(true);
    expect(final).toMatch(/^USER node$/m);
    expect(final).toMatch(/^HEALTHCHECK .*\/api\/health/m);
    expect(final).toMatch(/^CMD \["node", "server\/dist\/main\.js"\]$/m);
    expect(final).not.toContain('tsx');
  });

  it("uses Debian's ffmpeg and production dependencies only, pruned of the GPU whisper builds unless asked", () => {
    expect(final).toMatch(/apt-get install -y --no-install-recommends ffmpeg/);
    expect(final).toMatch(/FFMPEG_PATH=\/usr\/bin\/ffmpeg FFPROBE_PATH=\/usr\/bin\/ffprobe/);
    const deps = stages.find((stage) => stage.includes('AS deps'))!;
    expect(deps).toMatch(/npm install --omit=dev .*--workspace server/);
    expect(deps).toMatch(/node scripts\/prune-production\.mjs \/app \$\{WHISPER_GPU:\+--whisper-gpu=\$WHISPER_GPU\}/);
    expect(final).toMatch(/^COPY --from=deps \/app \/app$/m);
  });

  it('copies everything the production test installs and starts', () => {
    const copied = [...final.matchAll(/^COPY --from=(\w+) (\S+)/gm)].map(([, stage, source]) => ({ stage, source: source!.replace(/^\/app\/?/, '') }));
    const fromDeps = ['package.json', 'package-lock.json', 'shared/package.json', 'server/package.json', 'client/package.json'];
    for (const entry of PRODUCTION_FILES) {
      const covered = fromDeps.includes(entry) ? copied.some((copy) => copy.stage === 'deps' && copy.source === '') : copied.some((copy) => copy.stage === 'build' && copy.source === entry);
      expect(covered, entry).toBe(true);
    }
  });
});
