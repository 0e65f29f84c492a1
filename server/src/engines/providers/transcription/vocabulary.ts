/*
 * A glossary (streamer names, game terms, emotes) handed to whisper as its prompt: whisper reads
 * the prompt as text that came before the audio, so the terms' spellings become likely. Both
 * whisper.cpp (initial_prompt) and OpenAI's API keep at most 224 prompt tokens and silently drop
 * the oldest beyond that, so the glossary is cut here instead, whole terms first in glossary order.
 */

/**
 * The budget in UTF-8 bytes. Whisper's tokenizer is byte-level BPE: every token covers at least one
 * byte, so 224 bytes can never exceed 224 tokens, whatever the script (a Hangul syllable is 3
 * bytes). Ordinary words take 3 to 5 bytes a token, so this keeps far fewer terms than the limit
 * would allow, but never one the engine then drops unseen.
 */
export const PROMPT_BYTE_BUDGET = 224;

const SEPARATOR = ', ';

/**
 * The terms as one comma-separated prompt: trimmed, inner whitespace collapsed, repeats (ignoring
 * case) and empty ones left out, cut after the last whole term that fits. Undefined when no term
 * is left, so engines send no prompt at all.
 */
export function vocabularyPrompt(terms: readonly string[] | undefined, budget = PROMPT_BYTE_BUDGET): string | undefined {
  const seen = new Set<string>();
  let prompt = '';
  for (const raw of terms ?? []) {
    const term = raw.replace(/\s+/gu, ' ').trim();
    const key = term.toLocaleLowerCase();
    if (!term || seen.has(key)) continue;
    const next = prompt ? `${prompt}${SEPARATOR}${term}` : term;
    // A later, shorter term may still fit after a long one that did not.
    if (Buffer.byteLength(next, 'utf8') > budget) continue;
    seen.add(key);
    prompt = next;
  }
  return prompt || undefined;
}
