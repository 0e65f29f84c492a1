/**
 * The built-in generator's wording per language (the streamer form's languages, spec section 5),
 * so a German clip gets a German caption rather than English glue around a German title.
 * Any other language gets `neutral`: emoji and punctuation only, no words in a foreign language.
 *
 * Each style has a pool of templates, and the generator takes a different one for each clip of a
 * streamer while the pool lasts (generator.ts), so a creator does not read the same line on every
 * clip. Placeholders: {title} the clip's title, {short} its first words, {streamer}, {game} (only
 * for a game category), {context} ("xQc in Elden Ring"), {quote} a sentence of the speech, {emoji}
 * and {emoji2} the clip's mood; hooks also {subject}, the title shortened to fit a title card.
 */

export type DescriptionStyle = 'question' | 'punchy' | 'context' | 'quote' | 'watch';

export interface Phrases {
  /** Caption templates per style; at least one each. */
  templates: Readonly<Record<DescriptionStyle, readonly [string, ...string[]]>>;
  /** Title-card lines over the first seconds; each names the clip's {subject}. */
  hooks: readonly [string, ...string[]];
  /** "{streamer} in {game}", or the streamer alone when the category is unknown or not a game. */
  context(streamer: string, game: string | null): string;
  /** Stands in for an empty clip title. */
  untitled(streamer: string): string;
}

/** The wording every language has: one template per style, built the same way. */
interface Basics {
  /** Hook questions; {streamer} is replaced by the streamer's name. */
  questions: readonly [string, ...string[]];
  /** Short teasers after a punchy caption; worded unlike `watch` so the two styles do not read alike. */
  teasers: readonly [string, ...string[]];
  context(streamer: string, game: string | null): string;
  /** What joins the context line to the title. */
  colon: string;
  /** A "watch till the end" opener. */
  watch: string;
  untitled(streamer: string): string;
  /** Opening and closing quotation marks for a transcript quote. */
  quote: readonly [string, string];
  hooks: readonly [string, ...string[]];
}

function fromBasics(basics: Basics, extra: Partial<Record<DescriptionStyle, readonly string[]>> = {}): Phrases {
  const [open, close] = basics.quote;
  const pool = (base: readonly [string, ...string[]], style: DescriptionStyle): readonly [string, ...string[]] => [...base, ...(extra[style] ?? [])];
  return {
    templates: {
      question: pool(mapAll(basics.questions, (question) => `${question} {title} {emoji}`), 'question'),
      punchy: pool(mapAll(basics.teasers, (teaser) => `{emoji} {short} {emoji2} ${teaser}`), 'punchy'),
      context: pool([`{context}${basics.colon}{title}`], 'context'),
      quote: pool([`${open}{quote}${close} — {context} {emoji}`], 'quote'),
      watch: pool([`${basics.watch} {title}`], 'watch'),
    },
    hooks: basics.hooks,
    context: basics.context,
    untitled: basics.untitled,
  };
}

function mapAll(list: readonly [string, ...string[]], map: (item: string) => string): [string, ...string[]] {
  const [first, ...rest] = list;
  return [map(first), ...rest.map(map)];
}

const enBasics: Basics = {
  hooks: ['{subject} {emoji}', 'POV: {subject}', '{subject}?!', 'Wait for it… {subject}', '{streamer}: {subject}', 'Watch this: {subject}', 'Chat, look: {subject}', 'No way: {subject} {emoji}'],
  questions: ['Did you see that coming?', 'Would you have survived this?', 'How did {streamer} pull this off?', 'Can you believe this actually happened?'],
  teasers: ['Wait for it…', 'This one is wild', 'Chat lost it'],
  context: (s, g) => (g ? `${s} in ${g}` : `${s} live on stream`),
  colon: ': ',
  watch: 'Watch till the end 👀',
  untitled: (s) => `The best moment from ${s}'s stream`,
  quote: ['“', '”'],
};

const deBasics: Basics = {
  hooks: ['{subject} {emoji}', 'POV: {subject}', 'Warte… {subject}', '{streamer}: {subject}'],
  questions: ['Hättest du das kommen sehen?', 'Hättest du das überlebt?', 'Wie hat {streamer} das geschafft?', 'Kannst du glauben, dass das passiert ist?'],
  teasers: ['Wartet kurz…', 'Das ist einfach wild', 'Der Chat ist ausgerastet'],
  context: (s, g) => (g ? `${s} in ${g}` : `${s} live im Stream`),
  colon: ': ',
  watch: 'Bis zum Ende schauen 👀',
  untitled: (s) => `Der beste Moment aus dem Stream von ${s}`,
  quote: ['„', '“'],
};

const frBasics: Basics = {
  hooks: ['{subject} {emoji}', 'POV : {subject}', '{streamer} : {subject}'],
  questions: ["Tu l'avais vu venir ?", 'Tu aurais survécu à ça ?', 'Comment {streamer} a réussi ça ?', 'Tu y crois, à ce moment ?'],
  teasers: ['Attends un peu…', 'Complètement fou', 'Le chat est devenu fou'],
  context: (s, g) => (g ? `${s} sur ${g}` : `${s} en live`),
  colon: ' : ',
  watch: "Regarde jusqu'à la fin 👀",
  untitled: (s) => `Le meilleur moment du live de ${s}`,
  quote: ['« ', ' »'],
};

const esBasics: Basics = {
  hooks: ['{subject} {emoji}', 'POV: {subject}', '{streamer}: {subject}'],
  questions: ['¿Lo viste venir?', '¿Habrías sobrevivido a esto?', '¿Cómo lo hizo {streamer}?', '¿Puedes creer que esto pasó?'],
  teasers: ['Espera…', 'Esto es una locura', 'El chat enloqueció'],
  context: (s, g) => (g ? `${s} en ${g}` : `${s} en directo`),
  colon: ': ',
  watch: 'Míralo hasta el final 👀',
  untitled: (s) => `El mejor momento del directo de ${s}`,
  quote: ['«', '»'],
};

const ptBasics: Basics = {
  hooks: ['{subject} {emoji}', 'POV: {subject}', '{streamer}: {subject}'],
  questions: ['Você viu isso vindo?', 'Você teria sobrevivido a isso?', 'Como {streamer} conseguiu isso?', 'Dá pra acreditar que isso aconteceu?'],
  teasers: ['Espera só…', 'Isso foi insano', 'O chat surtou'],
  context: (s, g) => (g ? `${s} jogando ${g}` : `${s} ao vivo`),
  colon: ': ',
  watch: 'Assista até o final 👀',
  untitled: (s) => `O melhor momento da live de ${s}`,
  quote: ['“', '”'],
};

const itBasics: Basics = {
  hooks: ['{subject} {emoji}', 'POV: {subject}', '{streamer}: {subject}'],
  questions: ['Te lo aspettavi?', 'Saresti sopravvissuto a questo?', 'Come ha fatto {streamer}?', 'Ci credi che è successo davvero?'],
  teasers: ['Aspetta…', 'Pazzesco', 'La chat è impazzita'],
  context: (s, g) => (g ? `${s} su ${g}` : `${s} in live`),
  colon: ': ',
  watch: 'Guarda fino alla fine 👀',
  untitled: (s) => `Il momento migliore della live di ${s}`,
  quote: ['«', '»'],
};

const nlBasics: Basics = {
  hooks: ['{subject} {emoji}', 'POV: {subject}', '{streamer}: {subject}'],
  questions: ['Zag jij dat aankomen?', 'Had jij dit overleefd?', 'Hoe deed {streamer} dit?'],
  teasers: ['Wacht maar…', 'Dit is echt gestoord', 'De chat ging los'],
  context: (s, g) => (g ? `${s} in ${g}` : `${s} live op stream`),
  colon: ': ',
  watch: 'Kijk tot het einde 👀',
  untitled: (s) => `Het beste moment uit de stream van ${s}`,
  quote: ['“', '”'],
};

const ruBasics: Basics = {
  hooks: ['{subject} {emoji}', '{streamer}: {subject}'],
  questions: ['Ты ожидал такого?', 'Ты бы выжил?', 'Как {streamer} это сделал?'],
  teasers: ['Это просто безумие', 'Чат в шоке', 'Такое бывает раз в жизни'],
  context: (s, g) => (g ? `${s} в ${g}` : `${s} на стриме`),
  colon: ': ',
  watch: 'Досмотри до конца 👀',
  untitled: (s) => `Лучший момент со стрима ${s}`,
  quote: ['«', '»'],
};

const jaBasics: Basics = {
  hooks: ['{subject}{emoji}', '【{streamer}】{subject}'],
  questions: ['これ予想できた？', 'あなたなら耐えられる？', '{streamer}、どうやったの？', 'これ本当に起きたの？'],
  teasers: ['ヤバすぎる', 'これは伝説', 'チャット大騒ぎ'],
  context: (s, g) => (g ? `${s}の${g}配信` : `${s}の配信`),
  colon: '：',
  watch: '最後まで見てね 👀',
  untitled: (s) => `${s}の配信の神回`,
  quote: ['「', '」'],
};

const koBasics: Basics = {
  hooks: ['{subject} {emoji}', '[{streamer}] {subject}'],
  questions: ['이거 예상했어?', '너라면 살아남았을까?', '{streamer}, 이걸 어떻게 한 거야?'],
  teasers: ['이건 진짜 미쳤다', '채팅창 난리남', '역대급 장면'],
  context: (s, g) => (g ? `${s}의 ${g} 방송` : `${s} 방송`),
  colon: ': ',
  watch: '끝까지 보세요 👀',
  untitled: (s) => `${s} 방송 레전드 장면`,
  quote: ['“', '”'],
};

const zhBasics: Basics = {
  hooks: ['{subject}{emoji}', '【{streamer}】{subject}'],
  questions: ['你猜到了吗？', '换你能活下来吗？', '{streamer}是怎么做到的？'],
  teasers: ['太离谱了', '弹幕都炸了', '名场面预定'],
  context: (s, g) => (g ? `${s}的${g}直播` : `${s}的直播`),
  colon: '：',
  watch: '一定要看到最后 👀',
  untitled: (s) => `${s}直播名场面`,
  quote: ['“', '”'],
};

const trBasics: Basics = {
  hooks: ['{subject} {emoji}', '{streamer}: {subject}'],
  questions: ['Bunu beklemiyordun, değil mi?', 'Sen olsan hayatta kalır mıydın?', '{streamer} bunu nasıl yaptı?'],
  teasers: ['Bu çok çılgınca', 'Chat çıldırdı', 'Efsane an'],
  context: (s, g) => (g ? `${s} ${g} oynuyor` : `${s} yayında`),
  colon: ': ',
  watch: 'Sonuna kadar izle 👀',
  untitled: (s) => `${s} yayınından en iyi an`,
  quote: ['“', '”'],
};

const plBasics: Basics = {
  hooks: ['{subject} {emoji}', 'POV: {subject}', '{streamer}: {subject}'],
  questions: ['Spodziewałeś się tego?', 'Przeżyłbyś to?', 'Jak {streamer} to zrobił?'],
  teasers: ['To jest szalone', 'Czat oszalał', 'Legendarny moment'],
  context: (s, g) => (g ? `${s} w ${g}` : `${s} na streamie`),
  colon: ': ',
  watch: 'Obejrzyj do końca 👀',
  untitled: (s) => `Najlepszy moment ze streama ${s}`,
  quote: ['„', '”'],
};

const arBasics: Basics = {
  hooks: ['{subject} {emoji}'],
  questions: ['هل توقعت هذا؟', 'هل كنت ستنجو من هذا؟'],
  teasers: ['هذا جنون', 'لحظة أسطورية'],
  context: (s, g) => (g ? `${s} في ${g}` : `${s} في البث`),
  colon: ': ',
  watch: 'شاهد حتى النهاية 👀',
  untitled: (s) => `أفضل لحظة من بث ${s}`,
  quote: ['«', '»'],
};

const hiBasics: Basics = {
  hooks: ['{subject} {emoji}'],
  questions: ['क्या आपने ये सोचा था?', 'क्या आप इसे झेल पाते?'],
  teasers: ['ये तो पागलपन है', 'क्या पल है'],
  context: (s, g) => (g ? `${s} ${g} में` : `${s} लाइव`),
  colon: ': ',
  watch: 'आखिर तक देखें 👀',
  untitled: (s) => `${s} की स्ट्रीम का सबसे अच्छा पल`,
  quote: ['“', '”'],
};

/** No words at all: right in any language, if plainer. */
const neutralBasics: Basics = {
  hooks: ['{subject} {emoji}'],
  questions: ['⁉️'],
  teasers: ['👀'],
  context: (s, g) => (g ? `${s} · ${g}` : s),
  colon: ': ',
  watch: '⏳',
  untitled: (s) => `${s} 🎬`,
  quote: ['“', '”'],
};

/** English, the most used: enough of each style that a streamer's recent clips each read differently. */
const en = fromBasics(enBasics, {
  question: [
    'Could you do this? {title} {emoji}',
    'What would you have done here? {title} {emoji}',
    "Is this {streamer}'s best clip yet? {title} {emoji}",
    'Out of 10, how good is this? {title} {emoji}',
    'Who else had to watch this twice? {title} {emoji}',
    'Anyone else replaying this? {title} {emoji}',
  ],
  punchy: [
    '{emoji} {short} {emoji2} Had to clip this',
    '{emoji} {short} {emoji2} Run it back',
    '{emoji} {short} {emoji2} Nobody was ready',
    '{emoji} {short} {emoji2} Clip of the day',
    '{emoji} {short} {emoji2} Instant replay',
  ],
  context: [
    '{title} — {context} {emoji}',
    "From {streamer}'s stream: {title} {emoji}",
    "Today on {streamer}'s stream: {title}",
    '{streamer} live on Twitch: {title} {emoji}',
    'Straight from the stream: {title} ({streamer})',
    "Caught live on {streamer}'s stream: {title}",
    '{streamer} playing {game}: {title} {emoji}',
  ],
  quote: [
    '“{quote}” — {title} {emoji}',
    '{streamer}: “{quote}” {emoji} {short}',
    'The moment {streamer} said “{quote}” {emoji}',
    'Chat heard it: “{quote}” {emoji} {short}',
    '“{quote}” 🎙️ {title}',
    'Sound on: “{quote}” {emoji} {short}',
    '{short}: “{quote}” {emoji}',
  ],
  watch: [
    'Keep watching… {title} {emoji}',
    'Sound on 🔊 {title}',
    "Don't skip this one: {title} {emoji}",
    'Wait for the ending 👀 {title}',
    'Turn it up 🔊 {title} {emoji}',
    'Watch it twice 🔁 {title}',
    'Stay for the last second 👀 {title}',
  ],
});

const PHRASES: Readonly<Record<string, Phrases>> = {
  en,
  de: fromBasics(deBasics),
  fr: fromBasics(frBasics),
  es: fromBasics(esBasics),
  pt: fromBasics(ptBasics),
  it: fromBasics(itBasics),
  nl: fromBasics(nlBasics),
  ru: fromBasics(ruBasics),
  ja: fromBasics(jaBasics),
  ko: fromBasics(koBasics),
  zh: fromBasics(zhBasics),
  tr: fromBasics(trBasics),
  pl: fromBasics(plBasics),
  ar: fromBasics(arBasics),
  hi: fromBasics(hiBasics),
};
const neutral = fromBasics(neutralBasics);

export function phrasesFor(language: string): Phrases {
  return PHRASES[language] ?? neutral;
}
