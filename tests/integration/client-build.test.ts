import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_DIST, ensureClientBuilt } from '../e2e/harness.ts';

/**
 * The browser tests drive the client `npm start` serves: React's production build. Built under the
 * test runner (NODE_ENV=test), Vite would ship the development build (a JSX debug transform, extra
 * checks on every render), slower in the browser and not what users get.
 */
describe('the client the browser tests drive', () => {
  it('is the production build', async () => {
    await ensureClientBuilt();
    const assets = path.join(CLIENT_DIST, 'assets');
    const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const development = scripts.filter((name) => /\bjsxDEV\b|react-dom\.development/.test(readFileSync(path.join(assets, name), 'utf8')));
    expect(development).toEqual([]);
  });
});
