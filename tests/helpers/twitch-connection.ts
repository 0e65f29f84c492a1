import type { AppDeps } from '../../server/src/domains/deps.ts';
import { completeTwitchAuthorization, twitchAuthorizeUrl } from '../../server/src/domains/twitch/service.ts';
import type { FakeTwitch } from '../fakes/twitch/index.ts';

/** The query Twitch's authorize page sends the popup back with, for whoever the fake signs in. */
export async function authorizeAnswer(authUrl: string): Promise<URLSearchParams> {
  const answer = await fetch(authUrl, { redirect: 'manual' });
  if (answer.status !== 302) throw new Error(`the fake's authorize page answered ${answer.status}: ${await answer.text()}`);
  return new URL(answer.headers.get('location')!).searchParams;
}

/** Connects `login`'s Twitch account to the user through the real flow (authorize URL, fake consent, callback). */
export async function connectTwitch(deps: AppDeps, fake: FakeTwitch, userId: string, login: string, scopes?: string[]): Promise<void> {
  fake.setAuthorizingUser({ login, scopes });
  const query = await authorizeAnswer(await twitchAuthorizeUrl(deps, userId));
  const result = await completeTwitchAuthorization(deps, Object.fromEntries(query), userId);
  if (!result.success) throw new Error(`connecting ${login} failed: ${result.error}`);
}
