import { createHmac, randomBytes, randomUUID } from 'node:crypto';

/** Helix user object (external-apis.md A3). */
export interface FakeUser {
  id: string;
  login: string;
  display_name: string;
  type: string;
  broadcaster_type: string;
  description: string;
  profile_image_url: string;
  offline_image_url: string;
  view_count: number;
  created_at: string;
}

export interface FakeGame {
  id: string;
  name: string;
  box_art_url: string;
  igdb_id: string;
}

/** Helix clip object (A4), exactly the fields Twitch sends. */
export interface FakeClip {
  id: string;
  url: string;
  embed_url: string;
  broadcaster_id: string;
  broadcaster_name: string;
  creator_id: string;
  creator_name: string;
  video_id: string;
  game_id: string;
  language: string;
  title: string;
  view_count: number;
  created_at: string;
  thumbnail_url: string;
  duration: number;
  vod_offset: number | null;
  is_featured: boolean;
}

export interface AddBroadcasterInput {
  login: string;
  display_name?: string;
  broadcaster_type?: 'partner' | 'affiliate' | '';
  created_at?: string;
}

export interface AddGameInput {
  id?: string;
  name: string;
}

export interface AddClipInput {
  /** Login of a broadcaster added with addBroadcaster (added on the fly when unknown). */
  broadcaster: string;
  title: string;
  view_count: number;
  /** Default: one hour ago. */
  created_at?: string | Date;
  duration?: number;
  game_id?: string;
  language?: string;
  /** The clipper's display name (default MrMarshall); their login is this lower-cased. */
  creator_name?: string;
  creator_id?: string;
  /** The VOD; default "2187654321", or "" when the clip has no vod_offset. */
  video_id?: string;
  /**
   * Seconds into the VOD. Default: null for clips younger than 10 minutes (Twitch has not computed
   * it yet), else a different minute of the VOD for every clip, so default clips never overlap.
   */
  vod_offset?: number | null;
  is_featured?: boolean;
  /** The streamer made a vertical version: Get Clips Download lists a portrait_download_url. */
  portrait?: boolean;
  slug?: string;
  /** Qualities with a working sourceURL (default 720/480/360); null makes GQL answer videoQualities: null. */
  qualities?: string[] | null;
  /** Qualities listed with sourceURL "" as Twitch sometimes does (default ["1080"], above every working one). */
  emptyQualities?: string[];
  /** legacy: /AT-cm%7C<id>-<q>.mp4 and a clips-media-assets2 thumbnail; v2: /v2/media/<slug>/<uuid>/video-<q>.mp4. Alternates by default. */
  sourceStyle?: 'legacy' | 'v2';
  frameRate?: number;
}

/** What the fake keeps about a clip beyond its Helix shape: where its files are. */
export interface ClipRecord {
  clip: FakeClip;
  numericId: string;
  qualities: string[] | null;
  emptyQualities: string[];
  frameRate: number;
  /** quality → raw CDN path (with %7C left encoded, as Twitch serves it). */
  sourcePaths: Map<string, string>;
  thumbnailPath: string;
  assetUuid: string;
  portrait: boolean;
}

const ADJECTIVES = ['Awkward', 'Helpless', 'Delicious', 'Delightful', 'Knotty', 'Odd', 'Brave', 'Shiny', 'Sleepy', 'Tiny', 'Fancy', 'Gentle'];
const NOUNS = ['Salamander', 'Pickles', 'Fish', 'Fox', 'Otter', 'Badger', 'Walrus', 'Turnip', 'Panda', 'Lemur'];
const EMOTES = ['SwiftRage', 'WOOP', 'ShazBotstix', 'ChefFrank', 'Kappa', 'PogChamp', 'BibleThump', 'DansGame'];

export class FakeTwitchState {
  readonly users = new Map<string, FakeUser>();
  readonly games = new Map<string, FakeGame>();
  readonly clips = new Map<string, ClipRecord>();
  /** Raw CDN path → which clip and quality it serves. */
  readonly sourcePaths = new Map<string, { slug: string; quality: string }>();
  readonly thumbnailPaths = new Set<string>();
  /** access token → expiry (epoch ms). */
  readonly tokens = new Map<string, number>();
  private nextUserId = 141_981_764;
  private nextGameId = 500_000;
  private nextClipNumber = 961_443_378;
  private readonly signingKey = randomBytes(32);

  constructor(
    private readonly baseUrl: () => string,
    private readonly now: () => number,
  ) {
    this.addGame({ id: '509658', name: 'Just Chatting' });
    this.addGame({ id: '33214', name: 'Fortnite' });
    this.addGame({ id: '32982', name: 'Grand Theft Auto V' });
  }

  addBroadcaster(input: AddBroadcasterInput): FakeUser {
    const login = input.login.toLowerCase();
    const existing = this.users.get(login);
    if (existing) return existing;
    const id = String(this.nextUserId++);
    const user: FakeUser = {
      id,
      login,
      display_name: input.display_name ?? input.login,
      type: '',
      broadcaster_type: input.broadcaster_type ?? 'affiliate',
      description: `Fake streamer ${login}`,
      profile_image_url: `${this.baseUrl()}/static-cdn/jtv_user_pictures/${id}-profile_image-300x300.png`,
      offline_image_url: '',
      view_count: 0,
      created_at: input.created_at ?? '2016-12-14T20:32:28Z',
    };
    this.users.set(login, user);
    return user;
  }

  userById(id: string): FakeUser | undefined {
    return [...this.users.values()].find((user) => user.id === id);
  }

  addGame(input: AddGameInput): FakeGame {
    const id = input.id ?? String(this.nextGameId++);
    const game: FakeGame = { id, name: input.name, box_art_url: `https://static-cdn.jtvnw.net/ttv-boxart/${id}-{width}x{height}.jpg`, igdb_id: '' };
    this.games.set(id, game);
    return game;
  }

  addClip(input: AddClipInput): FakeClip {
    const broadcaster = this.users.get(input.broadcaster.toLowerCase()) ?? this.addBroadcaster({ login: input.broadcaster });
    const numericId = String(this.nextClipNumber++);
    const slug = input.slug ?? this.slug();
    const createdAtMs = input.created_at === undefined ? this.now() - 3_600_000 : new Date(input.created_at).getTime();
    const style = input.sourceStyle ?? (this.clips.size % 2 === 0 ? 'v2' : 'legacy');
    const assetUuid = randomUUID();
    const thumbnailPath =
      style === 'legacy'
        ? `/clips-media-assets2/AT-cm%7C${numericId}-preview-480x272.jpg`
        : `/static-cdn/twitch-clips-thumbnails-prod/${slug}/${assetUuid}/preview-480x272.jpg`;
    const vodOffset = input.vod_offset !== undefined ? input.vod_offset : this.now() - createdAtMs < 600_000 ? null : 1957 + 60 * this.clips.size;
    const creatorName = input.creator_name ?? 'MrMarshall';
    const clip: FakeClip = {
      id: slug,
      url: `https://clips.twitch.tv/${slug}`,
      embed_url: `https://clips.twitch.tv/embed?clip=${slug}`,
      broadcaster_id: broadcaster.id,
      broadcaster_name: broadcaster.display_name,
      creator_id: input.creator_id ?? this.creatorId(creatorName),
      creator_name: creatorName,
      video_id: input.video_id ?? (vodOffset === null ? '' : '2187654321'),
      game_id: input.game_id ?? '509658',
      language: input.language ?? 'en',
      title: input.title,
      view_count: input.view_count,
      created_at: new Date(createdAtMs).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      thumbnail_url: `${this.baseUrl()}${thumbnailPath}`,
      duration: input.duration ?? 3,
      vod_offset: vodOffset,
      is_featured: input.is_featured ?? false,
    };
    const qualities = input.qualities === undefined ? ['720', '480', '360'] : input.qualities;
    const record: ClipRecord = {
      clip,
      numericId,
      qualities,
      emptyQualities: input.emptyQualities ?? ['1080'],
      frameRate: input.frameRate ?? 30.0066681484774,
      sourcePaths: new Map(),
      thumbnailPath,
      assetUuid,
      portrait: input.portrait ?? false,
    };
    for (const quality of qualities ?? []) {
      const sourcePath = style === 'legacy' ? `/cdn/AT-cm%7C${numericId}-${quality}.mp4` : `/cdn/v2/media/${slug}/${assetUuid}/video-${quality}.mp4`;
      record.sourcePaths.set(quality, sourcePath);
      this.sourcePaths.set(sourcePath, { slug, quality });
    }
    this.thumbnailPaths.add(thumbnailPath);
    this.clips.set(slug, record);
    return clip;
  }

  baseUrlOf(): string {
    return this.baseUrl();
  }

  /** The signature of an official (Get Clips Download) file URL. */
  signOfficial(slug: string, kind: string, expires: number): string {
    return this.sign(`official\n${slug}\n${kind}\n${expires}`);
  }

  /** Absolute CDN URL of one rendition, %7C and all. */
  sourceUrl(record: ClipRecord, quality: string): string {
    return `${this.baseUrl()}${record.sourcePaths.get(quality) ?? ''}`;
  }

  issueToken(lifetimeSeconds: number): string {
    const token = randomBytes(15).toString('hex').slice(0, 30);
    this.tokens.set(token, this.now() + lifetimeSeconds * 1000);
    return token;
  }

  tokenValid(token: string): boolean {
    const expiresAt = this.tokens.get(token);
    return expiresAt !== undefined && expiresAt > this.now();
  }

  /** Twitch's playback token: a JSON string plus a 40-hex signature over it (A6b). */
  playbackToken(record: ClipRecord, version: 2 | 3): { signature: string; value: string } {
    const firstQuality = [...record.sourcePaths.keys()][0];
    const value = JSON.stringify({
      authorization: { forbidden: false, reason: '' },
      clip_uri: firstQuality ? this.sourceUrl(record, firstQuality) : '',
      clip_slug: record.clip.id,
      device_id: null,
      expires: Math.floor(this.now() / 1000) + 86_400,
      user_id: '',
      version,
    });
    return { signature: this.sign(value), value };
  }

  /** The CDN's check: the token is ours, unexpired and for this very clip. */
  playbackTokenAllows(slug: string, signature: string | null, value: string | null): boolean {
    if (!signature || !value || signature !== this.sign(value)) return false;
    try {
      const parsed = JSON.parse(value) as { clip_slug?: unknown; expires?: unknown };
      return parsed.clip_slug === slug && typeof parsed.expires === 'number' && parsed.expires * 1000 > this.now();
    } catch {
      return false;
    }
  }

  private sign(value: string): string {
    return createHmac('sha1', this.signingKey).update(value).digest('hex');
  }

  /** One stable numeric id per clipper, as Twitch has. */
  private creatorId(name: string): string {
    let hash = 123_456;
    for (const char of name.toLowerCase()) hash = (hash * 31 + char.charCodeAt(0)) % 900_000_000;
    return String(100_000_000 + hash);
  }

  private slug(): string {
    const n = this.clips.size;
    const pick = <T>(list: readonly T[], index: number): T => list[index % list.length] as T;
    const words = `${pick(ADJECTIVES, n)}${pick(ADJECTIVES, n * 7 + 3)}${pick(NOUNS, n * 3 + 1)}${pick(EMOTES, n * 5 + 2)}`;
    return `${words}-${randomBytes(12).toString('base64url').slice(0, 16)}`;
  }
}
