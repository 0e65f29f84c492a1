/**
 * Words that make useless hashtags (#the, #und, #les…) and carry no meaning for keyword picking.
 * Lists are deliberately short: the common function words of each language, plus the filler of
 * spoken stream audio and Twitch chat for English, since transcripts and titles are full of it.
 * Languages without a list still get keywords; they simply are not filtered by a list.
 */
const EN = `a about above after again against all also am an and any are aren't as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down
during each even few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here
hers herself him himself his how i i'd i'll i'm i've if in into is isn't it it's its itself just let's me more
most much my myself no nor not now of off on once only or other our ours out over own same she should so some
still such than that that's the their theirs them themselves then there there's these they they're this those
through to too under until up very was wasn't we we're were weren't what what's when where which while who why
will with won't would wouldn't you you'd you'll you're you've your yours yourself
get got gets gonna wanna gotta like yeah yes yep nope okay ok oh uh um uhh hmm really actually literally right
well go going went come know think see look thing things stuff guys guy dude bro man one way back make made said
say says let lol lmao lmfao rofl omg wtf bruh xd haha hahaha kekw lul chat stream streamer streaming clip clips
today time video`;

const DE = `aber alle allem allen aller alles als also am an andere anderen anders auch auf aus bei bin bis bist da
damit dann das dass dein deine dem den denn der des dich die dies diese diesem diesen dieser dieses dir doch dort du
durch ein eine einem einen einer eines einmal er es etwas euch euer eure für gegen gewesen hab habe haben hat hatte
hier hin ich ihm ihn ihnen ihr ihre im in ins ist ja jede jeder jetzt kann kein keine können könnte man mein meine
mich mir mit muss nach nein nicht nichts noch nun nur ob oder ohne sehr sein seine sich sie sind so soll sollte
sonst über um und uns unser unter viel vom von vor war waren was weil weiter welche wenn werde werden wie wieder
will wir wird wo wollen zu zum zur halt mal eben echt gerade schon`;

const FR = `au aux avec ce ces cet cette ça ca c d j l m n s t y à dans de des du elle en et eux il ils je la le les
leur lui ma mais me même mes moi mon ne nos notre nous on ou par pas pour qu que qui sa se ses son sur ta te tes toi
ton tu un une vos votre vous été était être avoir ai as avons avez ont est sont fait faire très plus tout tous toute
comme quand alors bien oui non trop là voilà ici`;

const ES = `a al algo algunas algunos ante antes como con contra cual cuando de del desde donde durante e el ella
ellas ellos en entre era es esa esas ese eso esos esta está están estaba estar este esto estos fue fueron ha hay la
las le les lo los más me mi mis mucho muy nada ni no nos o os otra otro para pero poco por porque que qué quien se
ser si sí sin sobre su sus también te tengo tiene tu tus un una uno unos y ya yo él`;

const PT = `a ao aos as até com como da das de dela dele do dos e ela ele eles em entre era essa esse esta está estão
eu foi há isso isto já lhe mais mas me meu minha muito na não nas nem no nos nós o os ou para pela pelo por qual
quando que quem se sem ser seu sua são também te tem tu um uma você vocês vai vou`;

const IT = `a ad al alla alle anche che chi ci come con da dal dalla dei del della delle di e ed è era gli ha hanno
ho i il in io la le lei lo loro lui ma mi mia mio ne nel nella noi non o per più quando quella quello questa questo
se si sono su sua suo tu tutto un una uno voi`;

const NL = `aan al als bij dan dat de die dit doen door een en er had heb hebben het hij hoe ik in is je kan maar me
met mijn na naar niet nog nu of om ook op over te tot uit van voor was wat we wel wij zal ze zij zijn zo`;

const RU = `и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне было вот от
меня еще нет о из ему теперь когда даже ну ли если уже или ни быть был него до вас там потом себя ничего ей может они
тут где есть надо ней для мы тебя их чем была сам без чего раз тоже себе под будет тогда кто этот того потому этого
какой ним здесь этом мой тем чтобы нее сейчас были куда можно при эти нас про всего них много эту моя`;

/** Grammatical particles and auxiliaries; most hiragana-only tokens are dropped by a script rule instead. */
const JA = `の に は を た が で て と し れ さ ある いる も する から な こと い や れる など ない この ため その よう
また もの という まで られ なる へ か だ これ それ です ます ました まし でも って ちゃ ん`;

const ZH = `的 了 是 我 你 他 她 它 在 有 这 那 就 也 都 和 吗 吧 啊 呢 一个 我们 你们 他们 不 没有 什么 怎么 这个 那个`;

const KO = `이 그 저 것 수 등 및 더 또 그리고 그래서 하지만 는 은 가 을 를 에 의 로 으로 와 과 도 만 진짜 너무`;

function wordSet(list: string): ReadonlySet<string> {
  return new Set(list.split(/\s+/).filter(Boolean));
}

const STOP_WORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  en: wordSet(EN),
  de: wordSet(DE),
  fr: wordSet(FR),
  es: wordSet(ES),
  pt: wordSet(PT),
  it: wordSet(IT),
  nl: wordSet(NL),
  ru: wordSet(RU),
  ja: wordSet(JA),
  zh: wordSet(ZH),
  ko: wordSet(KO),
};

/** Languages with a stop-word list, used to guess the language of a Latin-script title. */
export const LATIN_STOP_WORD_LANGUAGES = ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl'] as const;

export function stopWordsOf(language: string): ReadonlySet<string> {
  return STOP_WORDS[language] ?? new Set<string>();
}

/**
 * A stop word in the clip's language, or in English: titles in every language borrow English
 * ("GG", "the best clutch"), so English filler is never a keyword either.
 */
export function isStopWord(word: string, language: string): boolean {
  const lower = word.toLowerCase();
  return stopWordsOf(language).has(lower) || stopWordsOf('en').has(lower);
}
