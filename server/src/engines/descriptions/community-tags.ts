import type { AccountPlatform } from '@clipshift/shared';

/*
 * The hashtags people actually follow for a clip, as data: per popular Twitch category the tags its
 * community uses and the words of its own that make good tags (agents, champions, moves), and per
 * target platform its reach tags. Tags are written as the communities write them (lower case, no
 * spaces); terms are matched against a title's words, a multi-word term as consecutive words, and
 * become a tag with their spaces removed ("no scope" → #noscope).
 *
 * Nothing else in a title becomes a tag except a proper noun (hashtags.ts): common words (#old, #hard,
 * #walked, #year) describe every clip and nobody searches them.
 */

export interface GameCommunity {
  /** Twitch category names and the spellings people use for the game, lower case. */
  names: readonly string[];
  /** The game's own tag first, then the community's clip tags. */
  tags: readonly [string, ...string[]];
  /** Words of the game's community that are worth a tag when the clip's title or speech uses them. */
  terms?: readonly string[];
  /** Not a game (Just Chatting, IRL…): no gaming wording, no #gaming. */
  nonGame?: boolean;
}

export const GAME_COMMUNITIES: readonly GameCommunity[] = [
  { names: ['fortnite'], tags: ['fortnite', 'fortniteclips'], terms: ['victory royale', 'zero build', 'zerobuild', 'box fight', 'boxfight', 'storm surge'] },
  {
    names: ['valorant'],
    tags: ['valorant', 'valorantclips'],
    terms: [
      'jett', 'reyna', 'phoenix', 'raze', 'sova', 'omen', 'neon', 'chamber', 'killjoy', 'cypher', 'viper', 'brimstone', 'breach',
      'skye', 'yoru', 'astra', 'kayo', 'harbor', 'gekko', 'deadlock', 'clove', 'vyse', 'tejo', 'waylay', 'operator', 'vandal',
      'phantom', 'sheriff', 'odin', 'ascent', 'haven', 'lotus', 'icebox',
    ],
  },
  { names: ['minecraft'], tags: ['minecraft', 'minecraftmemes'], terms: ['creeper', 'ender dragon', 'enderdragon', 'herobrine', 'hypixel', 'bedwars', 'skyblock', 'redstone', 'nether', 'warden'] },
  {
    names: ['grand theft auto v', 'grand theft auto vi', 'gta v', 'gta 5', 'gtav', 'gta5', 'gta vi', 'gta 6', 'gta'],
    tags: ['gta', 'gta5'],
    terms: ['gta', 'gta rp', 'gtarp', 'nopixel', 'heist', 'los santos'],
  },
  { names: ['league of legends'], tags: ['leagueoflegends', 'lolclips'], terms: ['pentakill', 'quadrakill', 'baron', 'teemo', 'yasuo', 'jinx', 'lee sin', 'faker', 'worlds'] },
  {
    names: ['counter-strike', 'counter-strike 2', 'counter-strike: global offensive', 'cs2', 'cs:go', 'csgo', 'cs'],
    tags: ['cs2', 'counterstrike'],
    terms: ['cs2', 'csgo', 'awp', 'deagle', 'ak47', 'ninja defuse', 'one deag', 'mirage', 'inferno', 'nuke', 'dust2', 'dust 2'],
  },
  { names: ['apex legends', 'apex'], tags: ['apexlegends', 'apexclips'], terms: ['wraith', 'octane', 'pathfinder', 'bloodhound', 'horizon', 'kraber', 'squad wipe', 'squadwipe', 'predator'] },
  {
    names: ['call of duty: warzone', 'call of duty: warzone 2.0', 'warzone', 'warzone 2.0'],
    tags: ['warzone', 'callofduty', 'warzoneclips'],
    terms: ['gulag', 'verdansk', 'rebirth island', 'quickscope', 'quick scope'],
  },
  {
    names: ['call of duty: black ops 6', 'call of duty: black ops 7', 'call of duty: modern warfare iii', 'call of duty: modern warfare ii', 'call of duty'],
    tags: ['callofduty', 'cod', 'codclips'],
    terms: ['nuke', 'zombies', 'quickscope', 'quick scope'],
  },
  { names: ['just chatting'], tags: ['justchatting'], nonGame: true },
  { names: ['irl'], tags: ['irl', 'irlstream'], nonGame: true },
  { names: ['music'], tags: ['twitchmusic', 'livemusic'], nonGame: true },
  { names: ['art'], tags: ['twitchart', 'digitalart'], nonGame: true },
  { names: ['asmr'], tags: ['asmr'], nonGame: true },
  { names: ['talk shows & podcasts'], tags: ['podcast', 'podcastclips'], nonGame: true },
  { names: ['pools, hot tubs, and beaches'], tags: ['twitchstreamer'], nonGame: true },
  { names: ['travel & outdoors'], tags: ['travel', 'irl'], nonGame: true },
  { names: ['food & drink'], tags: ['food', 'cooking'], nonGame: true },
  { names: ['sports'], tags: ['sports'], nonGame: true },
  { names: ['special events'], tags: ['twitchevent'], nonGame: true },
  { names: ['makers & crafting'], tags: ['maker', 'diy'], nonGame: true },
  { names: ['science & technology'], tags: ['tech', 'science'], nonGame: true },
  { names: ['chess'], tags: ['chess', 'chesstok'], terms: ['checkmate', 'stalemate', 'gambit', 'en passant', 'magnus', 'hikaru'] },
  { names: ['elden ring', 'elden ring nightreign'], tags: ['eldenring', 'eldenringclips'], terms: ['malenia', 'radahn', 'messmer', 'margit', 'godrick', 'nightreign', 'soulslike', 'boss fight', 'bossfight'] },
  { names: ['overwatch 2', 'overwatch'], tags: ['overwatch2', 'overwatch'], terms: ['genji', 'tracer', 'mercy', 'widowmaker', 'hanzo', 'reinhardt', 'potg'] },
  { names: ['rocket league'], tags: ['rocketleague', 'rocketleagueclips'], terms: ['flip reset', 'ceiling shot', 'musty flick', 'air dribble', 'freestyle'] },
  { names: ['dota 2'], tags: ['dota2'], terms: ['rampage', 'roshan', 'aegis', 'pudge', 'invoker'] },
  { names: ['dead by daylight'], tags: ['deadbydaylight', 'dbd'], terms: ['mori', 'ghostface', 'myers', 'nemesis'] },
  { names: ['roblox'], tags: ['roblox'], terms: ['obby', 'brookhaven', 'bloxfruits', 'blox fruits'] },
  { names: ['marvel rivals'], tags: ['marvelrivals'] },
  { names: ['escape from tarkov', 'tarkov'], tags: ['tarkov', 'escapefromtarkov'], terms: ['scav', 'killa', 'tagilla'] },
  { names: ['pubg: battlegrounds', 'pubg'], tags: ['pubg'], terms: ['chicken dinner', 'erangel'] },
  { names: ["tom clancy's rainbow six siege", 'rainbow six siege', 'rainbow six siege x', 'r6'], tags: ['rainbowsixsiege', 'r6'] },
  { names: ['world of warcraft'], tags: ['worldofwarcraft', 'warcraft'], terms: ['azeroth', 'raid boss'] },
  { names: ['lethal company'], tags: ['lethalcompany'] },
  { names: ['among us'], tags: ['amongus'], terms: ['impostor', 'imposter'] },
  { names: ['fall guys'], tags: ['fallguys'] },
  { names: ['ea sports fc 24', 'ea sports fc 25', 'ea sports fc 26', 'fifa'], tags: ['eafc', 'fifa'], terms: ['ultimate team', 'fut', 'bicycle kick'] },
  { names: ['hearthstone'], tags: ['hearthstone'] },
  { names: ['teamfight tactics'], tags: ['tft', 'teamfighttactics'] },
];

/**
 * Words of gaming in general that are worth a tag in any game's clip: what the moment is, in the
 * words people search for it. "1v5" and similar are recognised by pattern (hashtags.ts).
 */
export const GAMING_TERMS: readonly string[] = [
  'clutch', 'ace', 'headshot', 'no scope', 'noscope', 'quickscope', 'one tap', 'onetap', 'flick', 'trickshot', 'trick shot',
  'speedrun', 'speed run', 'world record', 'jumpscare', 'jump scare', 'rage quit', 'ragequit', 'pentakill', 'victory royale',
  'boss', 'boss fight', 'bossfight', 'permadeath', 'nuzlocke', 'hardcore mode',
];

/**
 * Reach tags of each platform a clip may be posted to: what its viewers browse (#fyp on TikTok,
 * #shorts on YouTube, #reels on Instagram and Facebook). A tag of one platform looks out of place
 * on another, so only the clip's target platforms' tags are used.
 */
export const PLATFORM_TAGS: Readonly<Record<AccountPlatform, readonly [string, ...string[]]>> = {
  tiktok: ['fyp', 'foryou'],
  youtube: ['shorts'],
  instagram: ['reels', 'instagramreels'],
  facebook: ['reels', 'facebookreels'],
};

/** True of every clip wherever it goes: the reach tag when its target platforms are unknown. */
export const SOURCE_TAGS: readonly [string, ...string[]] = ['twitchclips', 'twitch'];

/**
 * Capitalised words that are not names: exclamations ("Oh my God", "OMG") and the hype a title
 * shouts. They are never taken for proper nouns.
 */
export const NOT_NAMES: ReadonlySet<string> = new Set([
  'god', 'jesus', 'christ', 'lord', 'omg', 'omfg', 'lol', 'lmao', 'wtf', 'gg', 'ggs', 'pog', 'poggers', 'kekw', 'lul', 'bruh', 'yo',
  'bro', 'dude', 'chat', 'stream', 'twitch', 'clip', 'pov', 'nah', 'yeah', 'wow', 'hey', 'please', 'thanks', 'sorry',
]);

const BY_NAME: ReadonlyMap<string, GameCommunity> = new Map(GAME_COMMUNITIES.flatMap((community) => community.names.map((name) => [name, community] as const)));

/** A category name as the table lists it: lower case, single spaces, no trademark signs. */
function categoryKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/[™®©]/g, '').replace(/\s+/g, ' ').trim();
}

/** The community of a Twitch category, when the table knows it. */
export function communityOf(gameName: string | null): GameCommunity | null {
  if (!gameName) return null;
  return BY_NAME.get(categoryKey(gameName)) ?? null;
}

/** The reach tags for these target platforms, main tags first, each once; the source's tags without any. */
export function platformTags(platforms: readonly AccountPlatform[] | undefined): string[] {
  if (!platforms?.length) return [...SOURCE_TAGS];
  const lists = [...new Set(platforms)].map((platform) => PLATFORM_TAGS[platform]);
  const longest = Math.max(...lists.map((list) => list.length));
  // Each platform's main tag before any platform's second one.
  const ordered = Array.from({ length: longest }, (_, rank) => lists.map((list) => list[rank]).filter((tag): tag is string => tag !== undefined)).flat();
  return [...new Set(ordered)];
}
