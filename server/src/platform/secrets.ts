import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

const secretsFile = z.object({
  app_secret: z.string().min(32),
  embedded_db_password: z.string().min(16),
});
type GeneratedSecrets = z.infer<typeof secretsFile>;

/**
 * Secrets the operator did not set, generated once into DATA_DIR/secrets.json (mode 0600) so they
 * survive restarts. Losing this file makes stored platform tokens unreadable, as losing APP_SECRET would.
 */
export async function loadGeneratedSecrets(dataDir: string): Promise<GeneratedSecrets> {
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) return secretsFile.parse(JSON.parse(await readFile(file, 'utf8')));
  const secrets: GeneratedSecrets = {
    app_secret: randomBytes(32).toString('base64url'),
    embedded_db_password: randomBytes(24).toString('base64url'),
  };
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return secrets;
}
