// `npm start`: builds the browser client when needed, then runs the server (web + worker, and the
// embedded database unless DATABASE_URL is set) in this process.
import { register } from 'tsx/esm/api';
import { ensureClientBuilt } from './client-build.mjs';

ensureClientBuilt();
register();
await import('../server/src/app/main.ts');
