export type { AppRouter } from './http/router.ts';
