/**
 * Whisper's languages (whisper.cpp g_lang / openai-whisper LANGUAGES), code → English name.
 * whisper.cpp fails the whole run on a language it does not know, so hints are checked against
 * this table first; OpenAI's verbose_json reports the English name, hence the reverse lookup.
 */
const WHISPER_LANGUAGES: Readonly<Record<string, string>> = {
  en: 'english', zh: 'chinese', de: 'german', es: 'spanish', ru: 'russian', ko: 'korean', fr: 'french',
  ja: 'japanese', pt: 'portuguese', tr: 'turkish', pl: 'polish', ca: 'catalan', nl: 'dutch', ar: 'arabic',
  sv: 'swedish', it: 'italian', id: 'indonesian', hi: 'hindi', fi: 'finnish', vi: 'vietnamese', he: 'hebrew',
  uk: 'ukrainian', el: 'greek', ms: 'malay', cs: 'czech', ro: 'romanian', da: 'danish', hu: 'hungarian',
  ta: 'tamil', no: 'norwegian', th: 'thai', ur: 'urdu', hr: 'croatian', bg: 'bulgarian', lt: 'lithuanian',
  la: 'latin', mi: 'maori', ml: 'malayalam', cy: 'welsh', sk: 'slovak', te: 'telugu', fa: 'persian',
  lv: 'latvian', bn: 'bengali', sr: 'serbian', az: 'azerbaijani', sl: 'slovenian', kn: 'kannada',
  et: 'estonian', mk: 'macedonian', br: 'breton', eu: 'basque', is: 'icelandic', hy: 'armenian',
  ne: 'nepali', mn: 'mongolian', bs: 'bosnian', kk: 'kazakh', sq: 'albanian', sw: 'swahili', gl: 'galician',
  mr: 'marathi', pa: 'punjabi', si: 'sinhala', km: 'khmer', sn: 'shona', yo: 'yoruba', so: 'somali',
  af: 'afrikaans', oc: 'occitan', ka: 'georgian', be: 'belarusian', tg: 'tajik', sd: 'sindhi', gu: 'gujarati',
  am: 'amharic', yi: 'yiddish', lo: 'lao', uz: 'uzbek', fo: 'faroese', ht: 'haitian creole', ps: 'pashto',
  tk: 'turkmen', nn: 'nynorsk', mt: 'maltese', sa: 'sanskrit', lb: 'luxembourgish', my: 'myanmar',
  bo: 'tibetan', tl: 'tagalog', mg: 'malagasy', as: 'assamese', tt: 'tatar', haw: 'hawaiian', ln: 'lingala',
  ha: 'hausa', ba: 'bashkir', jw: 'javanese', su: 'sundanese', yue: 'cantonese',
};

/** Other spellings of a language: legacy ISO codes, Twitch/BCP 47 variants and openai-whisper's aliases. */
const ALIASES: Readonly<Record<string, string>> = {
  iw: 'he', in: 'id', ji: 'yi', jv: 'jw', nb: 'no', fil: 'tl', zh_hans: 'zh', zh_hant: 'zh',
  burmese: 'my', valencian: 'ca', flemish: 'nl', haitian: 'ht', letzeburgesch: 'lb', pushto: 'ps',
  panjabi: 'pa', moldavian: 'ro', moldovan: 'ro', sinhalese: 'si', castilian: 'es', mandarin: 'zh',
};

/**
 * Turns a hint ("en", "pt-BR", "zh-hk", "other") into a code whisper accepts, or undefined when it
 * names no whisper language, so the engine auto-detects instead of failing.
 */
export function normalizeLanguageHint(hint: string | null | undefined): string | undefined {
  if (!hint) return undefined;
  const lowered = hint.trim().toLowerCase().replace(/_/g, '-');
  const primary = lowered.split('-')[0] ?? '';
  const code = ALIASES[primary] ?? primary;
  // Cantonese is only known to large-v3 models; other models would treat its token as garbage.
  if (code === 'yue') return 'zh';
  return code in WHISPER_LANGUAGES ? code : undefined;
}

/** "english" or "en" → "en"; anything unknown → null. */
export function languageCode(value: string | null | undefined): string | null {
  if (!value) return null;
  const lowered = value.trim().toLowerCase();
  if (lowered in WHISPER_LANGUAGES) return lowered;
  const alias = ALIASES[lowered.replace(/-/g, '_')] ?? ALIASES[lowered.split('-')[0] ?? ''];
  if (alias) return alias;
  const byName = Object.entries(WHISPER_LANGUAGES).find(([, name]) => name === lowered);
  if (byName) return byName[0];
  const primary = lowered.split('-')[0] ?? '';
  return primary in WHISPER_LANGUAGES ? primary : null;
}
