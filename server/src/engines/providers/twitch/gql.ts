import { TwitchError } from './errors.ts';
import { sendWithRetries } from '../http/retry.ts';
import { readErrorMessage, TWITCH_RETRIES, type TwitchRuntime } from './runtime.ts';
import { gqlClipOperationSchema, type ClipSource, type GqlClipOperation } from './types.ts';

interface GqlConfig {
  gqlUrl: string;
  gqlClientId: string;
  /** VideoAccessToken_Clip persisted-query hashes, current first (they rotate without notice, A6b). */
  clipHashes: readonly string[];
}

const OPERATION = 'VideoAccessToken_Clip';
const PERSISTED_QUERY_NOT_FOUND = 'PersistedQueryNotFound';

/** Resolves a clip slug to a signed MP4 URL of its best quality through gql.twitch.tv (A6b). */
export function createClipSourceResolver(config: GqlConfig, runtime: TwitchRuntime) {
  async function resolveClipSource(slug: string, signal?: AbortSignal): Promise<ClipSource> {
    const tried: string[] = [];
    for (const hash of config.clipHashes) {
      const operation = await queryClip(config, runtime, slug, hash, signal);
      if (operation.errors?.some((error) => error.message === PERSISTED_QUERY_NOT_FOUND)) {
        tried.push(hash);
        runtime.logger.warn({ slug, hash }, `Twitch GQL: ${PERSISTED_QUERY_NOT_FOUND} for ${OPERATION}; trying the next hash`);
        continue;
      }
      if (operation.errors?.length) {
        const messages = operation.errors.map((error) => error.message).join('; ');
        throw new TwitchError('upstream', `Twitch GQL ${OPERATION} failed for clip ${slug}: ${messages}`);
      }
      const source = pickSource(slug, operation);
      runtime.logger.debug({ slug, quality: source.quality, hash }, 'Resolved Twitch clip source');
      return source;
    }
    const message =
      `Twitch GQL answered ${PERSISTED_QUERY_NOT_FOUND} for ${OPERATION} with every configured hash ` +
      `(${tried.join(', ') || 'none configured'}); Twitch rotated the hash: update TWITCH_GQL_CLIP_HASHES`;
    runtime.logger.error({ slug, hashes: tried }, message);
    throw new TwitchError('persisted_query_not_found', message);
  }

  return { resolveClipSource };
}

/** One VideoAccessToken_Clip call. The array body is what the web client and yt-dlp send; the answer is then an array too. */
async function queryClip(
  config: GqlConfig,
  runtime: TwitchRuntime,
  slug: string,
  hash: string,
  signal: AbortSignal | undefined,
): Promise<GqlClipOperation> {
  const body = [
    {
      operationName: OPERATION,
      // The current hash expects `platform`; GraphQL ignores variables an older query does not declare.
      variables: { platform: 'web', slug },
      extensions: { persistedQuery: { version: 1, sha256Hash: hash } },
    },
  ];
  const what = `Twitch GQL ${OPERATION}`;
  const response = await sendWithRetries(runtime, {
    what,
    signal,
    send: (requestSignal) =>
      fetch(config.gqlUrl, {
        method: 'POST',
        headers: { 'Client-ID': config.gqlClientId, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal: requestSignal,
      }),
  }, TWITCH_RETRIES);
  if (!response.ok) {
    const message = await readErrorMessage(response);
    const kind = response.status === 400 ? 'bad_request' : response.status === 429 ? 'rate_limited' : 'upstream';
    throw new TwitchError(kind, `${what} failed with HTTP ${response.status} (${message})`, { status: response.status });
  }
  const json: unknown = await response.json().catch(() => undefined);
  const parsed = gqlClipOperationSchema.safeParse(Array.isArray(json) ? json[0] : json);
  if (!parsed.success) throw new TwitchError('upstream', `${what} returned a response we do not understand`);
  return parsed.data;
}

/** Highest numeric quality with a usable sourceURL; Twitch may list qualities in any order (TwitchDownloader#895). */
export function pickSource(slug: string, operation: GqlClipOperation): ClipSource {
  const clip = operation.data?.clip;
  if (!clip) throw new TwitchError('null_clip', `Clip ${slug} not found (null clip)`);
  const qualities = clip.videoQualities ?? [];
  const usable = qualities.filter((entry): entry is typeof entry & { sourceURL: string } => Boolean(entry.sourceURL));
  if (usable.length === 0) {
    const why = clip.videoQualities == null ? 'videoQualities is null' : qualities.length === 0 ? 'videoQualities is empty' : 'every sourceURL is empty';
    throw new TwitchError('no_source', `Clip ${slug} has no downloadable video (${why})`);
  }
  const token = clip.playbackAccessToken;
  if (!token?.signature || !token.value) {
    throw new TwitchError('no_source', `Clip ${slug} has no playback access token, so its video cannot be fetched`);
  }
  const best = usable.reduce((top, entry) => (qualityRank(entry.quality) > qualityRank(top.quality) ? entry : top));
  return { url: signedUrl(best.sourceURL, token.signature, token.value), quality: best.quality, frameRate: best.frameRate ?? null };
}

function qualityRank(quality: string): number {
  const rank = Number.parseInt(quality, 10);
  return Number.isNaN(rank) ? -1 : rank;
}

/** sourceURL is used verbatim: it already holds escapes such as %7C that must not be encoded twice (A6b). */
export function signedUrl(sourceUrl: string, signature: string, tokenValue: string): string {
  const separator = sourceUrl.includes('?') ? '&' : '?';
  return `${sourceUrl}${separator}sig=${signature}&token=${encodeURIComponent(tokenValue)}`;
}
