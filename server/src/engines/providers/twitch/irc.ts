// Twitch chat's IRC dialect (IRCv3 message tags over a WebSocket): parsing one line and turning a
// tagged PRIVMSG into a chat message. Pure functions; the connection lives in chat.ts.

/** One IRC line: `@tags :prefix COMMAND params… :trailing`. */
export interface IrcLine {
  tags: Record<string, string>;
  /** `nick!user@host` or a server name; '' when absent. */
  prefix: string;
  command: string;
  params: string[];
}

export interface ChatEmote {
  /** Twitch's emote id; for third-party emotes (BTTV, 7TV…) the scorer recognises by name, the name. */
  id: string;
  name: string;
  /** How many times it appears in the message. */
  count: number;
}

export interface ChatMessage {
  userId: string;
  login: string;
  displayName: string;
  text: string;
  emotes: ChatEmote[];
  /** tmi-sent-ts: when Twitch received it, epoch milliseconds. */
  sentAt: number;
  messageId: string;
}

const TAG_ESCAPES: Record<string, string> = { ':': ';', s: ' ', '\\': '\\', r: '\r', n: '\n' };

/** IRCv3 tag values escape `;`, space, backslash, CR and LF; a lone trailing backslash is dropped. */
export function unescapeTagValue(value: string): string {
  if (!value.includes('\\')) return value;
  return value.replace(/\\(.?)/g, (_match, next: string) => (next === '' ? '' : (TAG_ESCAPES[next] ?? next)));
}

function parseTags(raw: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const pair of raw.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 0) tags[pair] = '';
    else tags[pair.slice(0, equals)] = unescapeTagValue(pair.slice(equals + 1));
  }
  return tags;
}

/** Parses one line (without its CRLF); null for an empty or malformed line. */
export function parseIrcLine(line: string): IrcLine | null {
  let rest = line;
  let tags: Record<string, string> = {};
  if (rest.startsWith('@')) {
    const space = rest.indexOf(' ');
    if (space < 0) return null;
    tags = parseTags(rest.slice(1, space));
    rest = rest.slice(space + 1).trimStart();
  }
  let prefix = '';
  if (rest.startsWith(':')) {
    const space = rest.indexOf(' ');
    if (space < 0) return null;
    prefix = rest.slice(1, space);
    rest = rest.slice(space + 1).trimStart();
  }
  const trailingAt = rest.indexOf(' :');
  const head = trailingAt >= 0 ? rest.slice(0, trailingAt) : rest;
  const params = head.split(' ').filter(Boolean);
  const command = params.shift();
  if (!command) return null;
  if (trailingAt >= 0) params.push(rest.slice(trailingAt + 2));
  return { tags, prefix, command: command.toUpperCase(), params };
}

/** Splits a WebSocket frame into its lines: Twitch may pack several, each ended by CRLF. */
export function splitIrcLines(frame: string): string[] {
  return frame.split('\r\n').filter((line) => line.length > 0);
}

const ACTION = /^\u0001ACTION (.*?)\u0001?$/s;

/** `emotes=25:0-4,12-16/1902:6-10`: ranges are inclusive indices in Unicode code points of the text. */
export function parseEmotes(tag: string | undefined, text: string): ChatEmote[] {
  if (!tag) return [];
  // ASCII text indexes as it is; anything else by code point (an emoji is two UTF-16 units, one index).
  const codePoints = /^[\u0000-\u007f]*$/.test(text) ? null : Array.from(text);
  const emotes: ChatEmote[] = [];
  for (const entry of tag.split('/')) {
    const colon = entry.indexOf(':');
    if (colon <= 0) continue;
    const ranges = entry.slice(colon + 1).split(',');
    const [first] = ranges;
    const dash = first?.indexOf('-') ?? -1;
    if (!first || dash < 0) continue;
    const start = Number(first.slice(0, dash));
    const end = Number(first.slice(dash + 1)) + 1;
    const name = codePoints ? codePoints.slice(start, end).join('') : text.slice(start, end);
    emotes.push({ id: entry.slice(0, colon), name, count: ranges.length });
  }
  return emotes;
}

/** A PRIVMSG to a channel as a chat message; null for any other line or one without the tags the reader needs. */
export function chatMessageFrom(line: IrcLine): ChatMessage | null {
  if (line.command !== 'PRIVMSG' || line.params.length < 2) return null;
  const { tags } = line;
  const messageId = tags.id;
  const userId = tags['user-id'];
  if (!messageId || !userId) return null;
  const raw = line.params[1]!;
  const action = ACTION.exec(raw);
  const text = action ? action[1]! : raw;
  const bang = line.prefix.indexOf('!');
  const login = tags.login ?? (bang > 0 ? line.prefix.slice(0, bang) : line.prefix);
  const sentAt = Number(tags['tmi-sent-ts']);
  return {
    userId,
    login,
    displayName: tags['display-name'] || login,
    text,
    // /me shifts nothing: Twitch counts emote ranges in the text without the ACTION wrapper.
    emotes: parseEmotes(tags.emotes, text),
    sentAt: Number.isFinite(sentAt) ? sentAt : 0,
    messageId,
  };
}
