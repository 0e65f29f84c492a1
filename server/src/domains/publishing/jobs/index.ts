// The domain's job handlers: its second public entry, for app/jobs.ts (the job list) alone
// (docs/decisions/0030-architecture-checks.md). Everything else reaches the domain through service.ts.
export { autoPublishJob } from './auto-publish.ts';
export { postJob } from './post.ts';
export { mediaRetentionJob } from './retention.ts';
export { refreshStatsJob } from './stats.ts';
export { refreshTokensJob } from './tokens.ts';
