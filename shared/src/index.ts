export * from './constants.ts';
export * from './auth.ts';
export * from './invites.ts';
export * from './passkey.ts';
export * from './logs.ts';
export * from './errors.ts';
export * from './streamers.ts';
export * from './downloads.ts';
