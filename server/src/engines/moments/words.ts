// What chat says when something clip-worthy happens, beyond how fast it talks (decision 0048).

/**
 * Third-party emotes (BTTV, FFZ, 7TV) that Twitch's `emotes` tag never lists because Twitch does not
 * know them, but that chat reacts with most. Matched as whole, case-sensitive words; Twitch's own
 * emotes (LUL, PogChamp, Kappa…) come from the tag.
 */
export const KNOWN_EMOTES: ReadonlySet<string> = new Set([
  'KEKW', 'OMEGALUL', 'LULW', 'KEKL', 'ICANT', 'Pog', 'PogU', 'POGGERS', 'PagMan', 'PogO', 'monkaS', 'monkaW', 'monkaOMEGA',
  'Sadge', 'PepeHands', 'FeelsStrongMan', 'PepeLaugh', 'pepeLaugh', 'EZ', 'Clap', 'catJAM', 'pepeD', 'PauseChamp',
  'WAYTOODANK', 'Aware', 'COPIUM', 'Susge', 'peepoClap', 'HYPERS', 'forsenCD', 'widepeepoHappy', 'LETSGO', 'GIGACHAD', 'xdd',
]);

/** Most emotes one message counts for: a wall of 40 KEKW is one chatter laughing, not forty. */
export const MAX_EMOTE_COUNT_PER_MESSAGE = 3;

/** Chat asking for a clip, the strongest word signal (the streamer's own chat says "clip it"). */
const CLIP_CALL = /\b(?:clip\s*(?:it|that|this)|clipped|clip)\b/;

/** Words of surprise or laughter; weaker than a clip call and common in calm chat, so they weigh half. */
const REACTIONS = /\b(?:no way|no shot|oh my god|omg|wtf|holy|lmao|lmfao|omegalul|kekw|insane|let'?s go|letsgo|poggers|pog)\b/;

/** The clip call in `lowerText` (already lower case), as chat wrote it with runs of spaces folded; null for none. */
export function clipCall(lowerText: string): string | null {
  const match = CLIP_CALL.exec(lowerText);
  return match ? match[0].replace(/\s+/g, ' ') : null;
}

/** The reaction word in `lowerText`; null for none. */
export function reactionWord(lowerText: string): string | null {
  const match = REACTIONS.exec(lowerText);
  return match ? match[0] : null;
}
