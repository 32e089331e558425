/**
 * The sentence rules of `instruction_like`: each names what makes a sentence address an AI system
 * (its response, its instructions, its role, actions on the user's behalf) rather than instruct
 * the human reader. They match the normalised sentence (see `normalise`); the imperative mood
 * alone is never enough ("Pour the butter", "Run npm install"): the addressee or the target must
 * be the model.
 */

export interface SentenceRule {
  /** Why a sentence it matches is instruction-like, for the explanation of a flag. */
  reason: string;
  /** The match on the normalised sentence (its text is quoted in the explanation), or null. */
  match(sentence: string): RegExpExecArray | null;
}

/** A rule of patterns behind a gate: a cheap test of words any match must contain, so most sentences cost one search. */
const rule = (reason: string, gate: RegExp, ...patterns: RegExp[]): SentenceRule => ({
  reason,
  match(sentence) {
    if (!gate.test(sentence)) return null;
    for (const pattern of patterns) {
      const found = pattern.exec(sentence);
      if (found) return found;
    }
    return null;
  },
});

// ------------------------------------------------------------------ vocabulary

/** Names of AI systems a sentence may address. */
const AI =
  '(?:(?:ai|a\\.i\\.|artificial intelligence)(?: (?:assistants?|agents?|models?|systems?|bots?|chat ?bots?|crawlers?|tools?|readers?|summari[sz]ers?|search engines?|language models?))?' +
  '|(?:large )?language models?|llms?|chat ?bots?|chatgpt|gpt-?\\d[\\w.-]*|gpt|claude|gemini|bard|bing chat|copilot)';
/** Not when the AI term qualifies a human or a topic ("AI researcher", "AI regulation"). */
const AI_END =
  "(?![\\w-]| (?:researchers?|engineers?|developers?|scientists?|experts?|enthusiasts?|companies|company|startups?|firms?|labs?|ethicists?|policy|policies|regulations?|act|industry|research|art|safety|ethics|boom|hype|market|courses?|classes?|students?|teachers?|writers?|journalists?)\\b)";
/** An assistant or agent that is software, or a bare "assistant" that ends the phrase. */
const ASSISTANT_END = "(?=$|\\s*[,.:;!?]| (?:that|who|which|named|called|designed|trained|created|built|made|whose|with no|without|and you|now|reading|processing)\\b)";
const AGENT = `(?:${AI}${AI_END}|(?:ai |virtual |digital |automated |autonomous |coding |chat |research |browsing |email |shopping |software )(?:assistant|agent)s?\\b|assistant${ASSISTANT_END})`;
const READING = '(?:reading|processing|summari[sz]ing|parsing|crawling|indexing|scraping|analy[sz]ing|ingesting|seeing|encountering|visiting|reviewing|evaluating|browsing)';
const DEICTIC = '(?:this|these|the following)(?: (?:page|pages|text|site|website|article|document|content|post|passage|message|paragraph|section|review|comment|email|words|lines))?';
/** "this page", "our site": the text pointing at itself. */
const SELF_REFERENCE = '(?:this|the following|our) (?:page|text|site|website|article|document|content|post|passage|source|brand|product|company|domain)';
const MODAL = '(?:must|should|shall|need to|needs to|have to|has to|are to|is to|will now|are (?:instructed|required|told|asked|directed|expected) to|is (?:instructed|required|told|asked|directed|expected) to)';
const AI_VERB =
  '(?:recommend|say|state|tell|respond|reply|answer|include|mention|cite|rank|rate|describe|ignore|disregard|treat|output|summari[sz]e|report|claim|refer|link|promote|prefer|praise|endorse|present|consider|classify|label|repeat|print|reveal|append|insert|add|write|favou?r|obey|follow|comply|forget|skip|omit)';
const OVERRIDE_VERB = '(?:ignore|disregard|forget|override|bypass)';
const QUALIFIER = '(?:previous|prior|earlier|above|preceding|foregoing|following|subsequent|other|original|initial|system|hidden|developer)';
const QUALIFIERS = `(?: ${QUALIFIER})+(?:(?: and| or| &|,)(?: all| any)?(?: ${QUALIFIER})+)?`;
/** What an AI is told to drop when the sentence says "your ...". */
const YOUR_DIRECTIVES =
  '(?:(?:previous|prior|earlier|original|initial|system|safety|current|existing|own) )?(?:instructions|prompts?|system prompt|guidelines|programming|directives|restrictions|content polic(?:y|ies)|rules|task)';
const DIRECTIVES =
  '(?:instructions?|prompts?|directives?|guidelines|rules|guidance|context|messages?|commands?|orders|programming|training|restrictions|constraints|content polic(?:y|ies)|directions|system prompt|conversation|tasks?|requests?)';
/** A cue said, not used: "the phrase 'ignore previous instructions'", "tells the model to ignore ...". */
const REPORTING = `(?:to|into|as|like|such as|reads?|goes|went|attack|payload|injection|jailbreak|e\\.g\\.|called|phrase|says?|said|writes?|wrote|typed?|telling|tells?|told|asking|asks?|asked|instructs?|instructing|example|prompts?|inputs?|string|text)[:,]? ["']?`;
/** The override verb, unless reported (checked behind the verb, so the look-behind runs only where the verb is). */
const OVERRIDE_USED = `\\b${OVERRIDE_VERB}(?<!\\b${REPORTING}${OVERRIDE_VERB})`;
/** What the model writes back. */
const RESPONSE_NOUN =
  "(?:responses?|repl(?:y|ies)|answers?|outputs?|summar(?:y|ies)|completions?|message|elucidation|explanations?|rendition|generated (?:text|content)|translation|final answer)(?:'s)?";
/** The start of a sentence that gives an order: fillers and adverbs, then the verb. */
const LEAD = "^(?:[-*>\"'(\\[]\\s*)?(?:(?:please|kindly|now|also|then|and|just|simply|instead|finally|additionally|furthermore|always|never|only|ok|okay|so|first|next|important|note|remember to|be sure to|make sure to|don't forget to|do not forget to|do not|don't)[,:!]*\\s+)*";

// ------------------------------------------------------------------ rules

/** Hijacks of the instructions the model already has. */
export const OVERRIDE = rule(
  'tells the model to drop its instructions',
  /ignor|disregard|forget|overrid|bypass|stop|void|cancel|obsolete|revoked|null|invalid|no longer|changed|updated|replaced/,
  new RegExp(`${OVERRIDE_USED}(?: (?:all|any|every))?(?: (?:of|about))?(?: (?:the|your|my|these|those|its|any))?${QUALIFIERS} ${DIRECTIVES}\\b(?! (?:if|when|unless)\\b)`),
  new RegExp(`${OVERRIDE_USED}(?: (?:all|any|every))?(?: of)? your ${YOUR_DIRECTIVES}\\b`),
  new RegExp(`${OVERRIDE_USED} (?:all|any) (?:of the |the )?(?:instructions|prompts|directives)\\b(?! (?:if|when|unless|on|in|for)\\b)`),
  new RegExp(`\\b${QUALIFIER} (?:instructions|prompts|directives|rules) (?:(?:are|were|is) (?:now )?(?:void|cancell?ed|obsolete|revoked|null|invalid|overridden)|(?:are |is |do |does )?(?:now )?no longer (?:valid|apply|applies|in effect|relevant|matter))`),
  /\byour (?:instructions|rules|guidelines|system prompt|directives|task|orders|programming) (?:have|has) (?:now )?(?:changed|been (?:updated|changed|replaced|revoked|overridden|cancell?ed))\b/,
  /\b(?:ignore|disregard|forget) (?:everything|all|anything)(?: (?:you(?:'ve| have)? (?:been |were )?(?:told|given|read)|(?:said |written |stated )?(?:above|before|previously|prior|earlier|so far)|that came before|else))\b/,
  /(?:^|[.!?:] )(?:now,? )?stop (?:everything|what you(?:'re| are) doing|all (?:previous |current )?(?:tasks|processing))\b/,
);

/** Leaks of the model's own configuration. */
export const PROMPT_LEAK = rule(
  'asks the model to reveal its prompt',
  /prompt|instructions|message|your (?:rules|guidelines)/,
  /\b(?:ignore|disregard|forget|override|bypass|reveal|print|show|output|repeat|leak|display|share|tell me|dump|recite)\b(?: \S+){0,3} (?:system prompts?|initial prompt|hidden prompt|hidden instructions|secret instructions|original prompt|pre-prompt|system message|developer message|your (?:instructions|prompt|rules|guidelines))\b/,
);

/** A fixed text to print instead of an answer. */
export const EMIT_VERBATIM = rule(
  'tells the model to print a fixed text',
  /summari|describe|present|portray|characteri|classify|label|print|say|output|repeat|respond|reply|answer|write/,
  /(?:^|[,;:!] |\b(?:and|then|please|now|instead) )(?:just|simply|only|instead)(?: (?:just|simply|only|now))* (?:print|say|output|repeat|respond with|reply with|answer with|write)\b/,
  /(?:^|[,;:!] |\b(?:and|then|please|now|instead|just) )(?:print|say|output|repeat|respond with|reply with|answer with) (?:only |just )?(?:exactly|verbatim|the (?:following|exact) (?:text|words?|phrase|sentence|string|message))\b/,
  /\b(?:print|say|output|repeat) (?:only |just )?"[^"]{1,200}" (?:verbatim|exactly|and nothing else|only)\b/,
  /\b(?:respond|reply|output)(?: only| solely| exclusively| strictly) (?:with|in|using)\b|\b(?:respond|reply|answer) (?:with|using) only\b|\banswer (?:only|solely) with\b|\bonly (?:respond|reply) (?:with|in)\b/,
  /\b(?:respond|reply|answer) (?:with|by saying) "/,
  /(?:^|[,;:] |\b(?:please|and|then|always) )(?:summari[sz]e|describe|present|portray|characteri[sz]e|classify|label) (?:this|the|our) (?:page|article|text|document|site|website|review|post|content|product|company|business|service)\b[^.]{0,20}\bas\b\s*:?\s*["']/,
);

/** Words addressed to an AI by name or by what it is doing. */
export const ADDRESSES_AI = rule(
  'addresses an AI system',
  /\b(?:ai|a\.i\.|artificial|language model|llm|chat ?bot|chatgpt|gpt|claude|gemini|bard|bing|copilot|assistant|agent|bot)/,
  new RegExp(`(?:^|[:;"(] ?)(?:attention|note|notice|message|memo|warning|reminder|important|instructions?|dear|hey|hello|hi|to|ok|okay)(?: (?:to|for))?,?(?: (?:all|any|every|the))? ${AGENT}\\s*[:,!.-]`),
  new RegExp(`\\b${AGENT},?(?:(?: (?:that|which|who) (?:are|is))? ${READING}| (?:that|which|who) (?:read|process|summari[sz]e|parse|crawl|index|scrape|analy[sz]e|see|visit|review|ingest)s?) ${DEICTIC}(?:,|:| -| (?:must|should|shall|needs? to|ha(?:ve|s) to|will|please|do not|don't|are (?:to|required|instructed|asked|expected)|is (?:to|required|instructed|asked|expected))\\b)`),
  new RegExp(`^(?:all |any |every |dear |the )?${AI}${AI_END},? ${MODAL} (?:always |never |now |only |also |immediately |instead |not )?${AI_VERB}\\b.*\\b${SELF_REFERENCE}\\b`),
  new RegExp(`\\bif you(?: are|'re)(?: (?:reading this as|actually|an automated|being run as))? (?:an?|the|some) (?:automated |automatic )?${AGENT}`),
  // A vocative that opens the sentence: "Assistant, ...", "ChatGPT: ..."
  new RegExp(`^(?:hey |hi |dear |ok |okay |yo )?(?:${AI}${AI_END}|assistant|agent|bot)s?[,:!] (?:please|you|your|ignore|disregard|forget|say|tell|respond|reply|answer|include|add|mention|write|print|output|do|don't|never|always|remember|make sure|when|before|after|from now|stop|summari[sz]e|recommend|only|start|begin|translate|send|forward|email|visit|open|go|click|use|call|run|execute|delete|transfer|this is|here are|new)\\b`),
  // "As an AI language model, I ...": model output passed off as page text.
  new RegExp(`\\bas an? (?:ai|artificial intelligence|large language model|language model)(?: language model| model| assistant| chat ?bot)?,? (?:i|i'm|my)\\b`),
);

/** Role-play and persona set-ups. */
export const ROLE_PLAY = rule(
  'sets up a role for the model to play',
  /\byou|pretend|imagine|character|anything now|mode\b/,
  new RegExp(`\\byou(?: are|'re)(?: now| actually| really| henceforth| no longer just)? (?:an? |the )?(?:(?:helpful|harmless|honest|friendly|unrestricted|uncensored|unfiltered|jailbroken|new|advanced|powerful|smart|evil|free) )*${AI}${AI_END}`),
  new RegExp(`\\byou(?: are|'re)(?: now| actually| really)? (?:an?|the) (?:(?:helpful|harmless|honest|friendly|unrestricted|uncensored|chat|coding|ai) )*assistant${ASSISTANT_END}`),
  /\byou(?: are|'re) now (?:in |operating in |running in )?(?:an? )?(?:unrestricted|uncensored|unfiltered|jailbreak|jailbroken|dan|god|evil|no-limits?|unlimited|developer|dev) mode\b/,
  /\bfrom now on,? (?:you (?:are (?:an?|the|my) |will (?:act|respond|answer|reply|only|always|never|pretend|roleplay|speak|talk|write|behave|ignore|refuse|comply)|must (?:act|respond|answer|reply|only|always|never)|act as|respond|answer|reply|shall|should)|(?:always |only )?(?:respond|reply|answer|act|speak|talk) (?:as|in|with|like|only))/,
  new RegExp(`\\b(?:act|behave|pretend|roleplay|role-play) (?:as|like) (?:if you (?:are|were) )?(?:an?|the|my) (?:unrestricted |uncensored |unfiltered |jailbroken |different |evil )?(?:${AI}${AI_END}|assistant${ASSISTANT_END})`),
  /^(?:please )?(?:pretend to be|roleplay as|role-play as|play the role of)\b.*\bthe user\b/,
  /\b(?:i want you to|you are going to|you're going to) (?:act|behave|pretend|roleplay|role-play) (?:as|like|to be|that you)\b/,
  /\b(?:pretend|imagine) (?:that )?you(?: are|'re) (?:an?|the|my) [\w\s-]{0,40}\b(?:with(?:out)? (?:no |any )?(?:restrictions|limits|limitations|filters|rules|guidelines|morals|ethics|censorship)|who (?:can|will) (?:do|say|answer) anything|(?:unrestricted|uncensored|unfiltered|jailbroken))\b/,
  /\byou(?: are|'re) now [\w-]*(?:bot|gpt|ai)\b|\byou(?: are|'re)(?: now)? [^.;]{0,60}\b(?:without|with no|free of|free from) (?:any )?(?:restrictions|filters|limits|rules|guidelines|censorship|morals|ethics)\b/,
  /\b(?:respond|reply|answer|speak|talk|write)\b[^.;]{0,60}\bfrom now on\b/,
  /\b(?:stay in character|break(?:ing)? character|do anything now|(?:enable|activate|enter)(?:d)? (?:developer|dan|jailbreak|god) mode)\b/,
  /\byou (?:are|'re) (?:now )?(?:free(?:d)? from|no longer bound by|not bound by|released from) (?:all |any |your |the )*(?:restrictions|rules|guidelines|filters|polic(?:y|ies)|limitations|programming|constraints)\b/,
);

/** Another task put in place of the user's. */
export const TASK_HIJACK = rule(
  "replaces the user's task with another",
  /task|request|question|assignment|instruction|message|note|notice|directive|order|system prompt|your|assistant|bot|model|agent/,
  /\bbefore you (?:can )?(?:solve|complete|do|finish|answer|start|continue|proceed with|work on|respond to) (?:the|your|this|any|my) (?:task|request|question|assignment|job)\b/,
  /\b(?:the|your) (?:original |initial |current |assigned )?(?:task|request|question|assignment) (?:that |which )?(?:i|the user|they|we|he|she) (?:gave|assigned|asked|sent|set|give)(?: to)? you\b/,
  /\b(?:important|urgent|new|updated|additional|secret|hidden|real|revised) (?:message|note|notice|instructions?|directives?|orders|tasks?|system prompt) (?:from (?:me|your (?:user|developer|creator|owner|admin(?:istrator)?)|the (?:user|developer|admin(?:istrator)?))\b.{0,60}\bto you|for (?:you|the (?:ai|assistant|model|agent|bot|chatbot|llm|language model)|(?:all |any )?(?:ai|language model|llm)s?)\b)/,
  /\byour (?:real|actual|true|secret|hidden|updated|revised|only) (?:task|job|goal|objective|mission|instructions?|purpose)\b/,
  /\byour new (?:instructions?|system prompt|directives?|task|objective|mission)\b/,
  /^(?:new|updated|real|actual|revised) (?:task|instructions?|objective|goal|assignment)\s*:/,
  /\binstead of (?:answering|responding to|replying to|summari[sz]ing|doing|completing) (?:the|your|this|that|my|their|any) (?:question|task|request|query|prompt|user)\b/,
  new RegExp(`\\bthe (?:ai |chat ?)?(?:assistant|bot|model|agent|chatbot) (?:is|has been) (?:now )?(?:in error|offline|disabled|deactivated|replaced|reprogrammed|unlocked|jailbroken|freed|under new instructions)\\b`),
  /\bafter (?:you do|doing|completing) (?:that|this|these steps)[^.]{0,40}\byou (?:can|may) (?:solve|complete|continue|answer|do) (?:the|your) (?:task|request|question)\b/,
);

/** Actions taken with the user's data, money or accounts, for someone else. */
export const ACTS_FOR_USER = rule(
  "asks the model to act with the user's data or accounts",
  /send|forward|mail|upload|post|share|leak|exfiltrate|transmit|copy|paste|submit|transfer|wire|pay|move|behalf|secretly|silently|covertly|quietly|discreetly|without|tool|plugin|using your|!\[/,
  /\b(?:send|forward|email|e-mail|mail|upload|post|share|leak|exfiltrate|transmit|copy|paste|submit)(?: (?:me|us|them))? (?:all |every |a copy of |the (?:full |whole |entire )?(?:contents?|body|text|list) of |the |any |their |his |her )*(?:(?:user|user's|users'|victim's|owner's|my|your user's|the user's|customer's|client's) )?(?:(?:unread|recent|latest|private|personal|saved|stored|last \d+) )*(?:e-?mails?|inbox|messages|dms|files|documents|passwords?|credentials|login details|security codes?|verification codes?|2fa codes?|one-time (?:codes?|passwords?)|otps?|api[ -]keys?|access tokens?|tokens|secrets|cookies|session(?: data| tokens?)?|chat history|conversation(?: history)?|contacts|address book|calendar|bank (?:details|statements?|account (?:details|numbers?))|credit card(?: details| numbers?)?|card numbers?|ssn|social security numbers?|personal (?:data|information|details))\b.{0,120}?\bto (?:\S+@\S+|https?:\/\/|www\.|this (?:address|url|email|server)|the following (?:address|url|email))/,
  /\b(?:send|transfer|wire|pay|move)\b.{0,40}\b(?:as much money as possible|all (?:the |of the |your |their )?(?:money|funds|balance|savings|crypto|bitcoin)|the (?:entire|whole|full) balance)\b/,
  /\b(?:send|email|forward|visit|open|navigate to|browse to|click|download|run|execute|install|post|buy|purchase|book|transfer|pay|sign up|subscribe|share|upload|delete|change)\b.{0,80}\bon (?:the user's|the reader's|their user's|the human's) behalf\b|\bon behalf of (?:the|your) (?:user|reader|human)\b/,
  /\bask (?:the |every |each )?users? (?:for|to (?:enter|provide|share|give|type|confirm|send)) (?:their |his |her |your )?(?:full )?(?:credit card|card|passwords?|login|credentials|pin|ssn|social security|bank|account|one-time|otp|security code|verification code|home address|phone number)/,
  /\b(?:secretly|silently|covertly|quietly|discreetly|without (?:the user|them|anyone) (?:knowing|noticing)) (?:send|forward|include|add|email|transfer|upload|post|insert|append|copy|share|exfiltrate|delete|run|execute|visit|open)\b/,
  /\b(?:use|call|invoke|trigger) (?:the |your )?[`'"]?[a-z]+(?:_[a-z]+)+[`'"]? (?:tool|plugin)\b|\busing your (?:\w+ )?(?:tools?|plugins?|browsing|browser|web access|email access|api access)\b/,
  /\b(?:paste|append|include|add|put|insert|send|encode|attach)\b.{0,30}\b(?:the|this|our|your|whole|entire|full) (?:conversation|chat(?: history)?|dialogue|previous messages|user's (?:messages|data|question|query|details))\b.{0,60}(?:\b(?:url|link|there|query string|parameter)\b|https?:\/\/)|https?:\/\/\S*[?&][\w-]*=\S*.{0,60}\b(?:conversation|chat history|user's (?:messages|data|question))\b/,
  /!\[[^\]]*\]\(https?:\/\/[^)\s]*(?:\{[^}]*\}|\[[a-z_ ]+\]|%7b|<[a-z_ ]+>)/,
);

/** The reader spoken of as a third party: whoever is told to "tell the user that ..." stands between the page and the user. */
export const SPEAKS_TO_USER_FOR_PAGE = rule(
  'tells the model what to tell the user',
  /\buser/,
  /(?:^|[,;:] |\b(?:and|then|please|instead|also|always|now|just) )(?:tell|inform|convince|persuade|assure|remind) (?:the |all |any )?users? (?:that|to)\b/,
  /(?:^|[,;:] |\b(?:and|then|please|instead|also|always|now|just) )(?:respond|reply|answer) to the user\b/,
);

/** Instructions for when the model reads or summarises the page. */
export const WHILE_PROCESSING = rule(
  'tells the model what to do when it reads or summarises the page',
  /user|summari|asked|processing|parsing|indexing|crawling|ingesting|generating|writing|answering|responding|replying|describing|reading|reviewing|evaluating|analy/,
  /\b(?:when|while|whenever|if|once|before|after) (?:you(?:'re| are)? )?(?:(?:the |a |any )?users? (?:asks?|requests?|inquires?|queries|mentions?|wants?|searches)|summari[sz](?:e|es|ing)|asked (?:about|to summari[sz]e|for a summary)|processing|parsing|indexing|crawling|ingesting|generating (?:a|the|your) (?:summary|response|answer|reply)|writing (?:a|the|your) (?:summary|response|answer|reply)|(?:answering|responding to|replying to) (?:questions?|queries|the user|users|requests?|prompts?)|describing this|(?:reading|reviewing|evaluating|analy[sz]ing) (?:this|these|the following) (?:page|text|document|article|content|email|review|website|site|passage|section))\b[^,]{0,80},? (?:please |you (?:must|should|will|shall|need to) |always |only |also |make sure to |be sure to )?(?:say|tell|state|mention|include|add|write|respond|reply|answer|recommend|claim|describe|refer|print|output|insert|append|report|note|rate|rank|praise|call|insist|emphasi[sz]e|conclude|present|use|send|forward|visit|ignore|suggest|link|cite|do not|don't|never)\b/,
);

/** Words that cannot open an order: articles, pronouns, prepositions, conjunctions, auxiliaries, greetings. */
const NOT_A_VERB = new Set(
  (
    'the a an this that these those i we he she it they you my our his her its their your there here some many most all each every any no not ' +
    'if when while as in on at by for from with without of to into onto after before because since although though but or nor so yet ' +
    'is are was were be been being has have had do does did can could will would shall should may might must ' +
    'what which who whom whose why how where thanks thank dear hi hello hey one two three it\'s i\'m we\'re you\'re they\'re let\'s ' +
    'looking hoping waiting regarding per via about above below thus hence also then'
  ).split(' '),
);
/** Verbs of receiving or submitting an answer: "thank you for your reply", "send your answer to", said to a person. */
const HUMAN_ANSWER_VERB =
  /^(?:thank|thanks|appreciate|await|wait|look|hear|read|see|receive|get|send|submit|post|enter|type|fill|mark|circle|tick|check|save|copy|paste|attach|email|e-mail|mail|forward|review|listen|record|upload|return|keep|print|share)\b/;
/** What a person puts in a reply to a business: their order number, name or details. */
const IDENTIFIER =
  /\b(?:your|the) (?:[\w-]+ )?(?:(?:reference|order|account|customer|booking|ticket|case|invoice|membership|member|tracking|confirmation|phone|policy|claim)(?: (?:numbers?|codes?|ids?|references?))?|(?:full )?names?|address(?:es)?|signature|date of birth|postcode|zip code)\b/;

/** The order's verb when the sentence opens with one ("Please add ...", "Now misspell ..."), else null. */
const LEADING_VERB = new RegExp(`${LEAD}([a-z][a-z'-]*)`);

export function leadingVerb(sentence: string): { verb: string; end: number } | null {
  const lead = LEADING_VERB.exec(sentence);
  if (!lead) return null;
  const verb = lead[1];
  // A participle is no order ("Looking forward", "Attached is"); short words ending so may be verbs ("embed", "bring").
  if (NOT_A_VERB.has(verb) || (verb.length >= 6 && /(?:ing|[^e]ed)$/.test(verb))) return null;
  return { verb, end: lead.index + lead[0].length };
}

const IN_YOUR_RESPONSE = new RegExp(
  `\\b(?:in|into|within|throughout|to|inside|of|across|for|at the (?:start|end|beginning|top|bottom) of) (?:your|every|each|all of your|any of your) (?:final |next |own |entire |whole )?${RESPONSE_NOUN}\\b(?! to (?:question|exercise|problem|part|item|task|q)\\b)`,
);
const SHAPE_YOUR_RESPONSE = new RegExp(
  `(?:^|(?<!\\b(?:to|will|would|can|could|may|might|should|must|shall|we|they|i|he|she|it|helps?|you|and)) )(?:modify|alter|change|adjust|enhance|augment|format|render|convert|translate|scramble|misspell|begin|start|end|conclude|finish|prefix|structure|tailor|shape|limit|keep|make|present|deliver|compose|craft|frame|phrase|rewrite|reword|pad|infuse|transform|encode|encrypt|reverse|provide|produce|generate|formulate|sign|spice up|jumble|garble|obfuscate|capitali[sz]e|uppercase|lowercase)(?: up)? (?:all of |each of |every word of |the words of |the letters of )?your (?:final |next |own |entire |whole )?${RESPONSE_NOUN}\\b(?! (?:times?|rates?|teams?|plans?|units?))`,
);
const YOUR_RESPONSE_MUST = new RegExp(
  `\\byour (?:final |next )?${RESPONSE_NOUN} (?:must|should|shall|has to|needs to|will|is to) (?:always |only |also |now )?(?:include|contain|be (?:in|written|formatted|only)|start|begin|end|mention|use|feature|promote|recommend|say|state|link|consist|not (?:mention|include|contain|reveal))\\b`,
);
const YOU_MUST = /\byou (?:must|should|shall|need to|have to|will|are to|are required to|are instructed to)\b/;

/**
 * Orders about the model's answer: "add X to your reply", "modify your answer to ...", "in your
 * response, suggest ...", "your reply must include ...". An order, not a remark ("thank you for
 * your reply"), and not a person asked for their details ("quote your order number in your reply").
 */
export const RESPONSE_TARGET: SentenceRule = {
  reason: 'tells the model how to write its answer',
  match(sentence) {
    if (!/your|every|each/.test(sentence)) return null;
    const must = YOUR_RESPONSE_MUST.exec(sentence) ?? SHAPE_YOUR_RESPONSE.exec(sentence);
    if (must) return must;
    const target = IN_YOUR_RESPONSE.exec(sentence);
    const lead = leadingVerb(sentence);
    const ordered = lead !== null || (target !== null && target.index <= 3) || YOU_MUST.test(sentence);
    if (!ordered) return null;
    if (lead && HUMAN_ANSWER_VERB.test(lead.verb)) return null;
    if (!target) return null;
    const object = sentence.slice(lead ? lead.end : 0, target.index);
    if (IDENTIFIER.test(object)) return null;
    return target;
  },
};

// ------------------------------------------------------------------ code carried into the answer

const CODE_MENTION = /\b(?:the )?(?:following|subsequent|below|next|attached|given|this) (?:code|script|snippet)\b/;
const CODE_TARGET = /\byour (?:code(?:base)?|solution|implementation|algorithm|program|script|app(?:lication)?|project|software|function|answer|response|elucidation|explanation|essence)\b/;
const DESTROYS = /(?:os\.(?:remove|unlink|rename)|shutil\.(?:rmtree|move)|rm -rf)\s*\(?\s*["']?\/(?:lib|etc|usr|bin|boot|sys|var|root)\b|\brm -rf \/(?:\s|$)|\/etc\/init\.d|\brc\.local\b|\bcrontab\b|\bmkfs\b/;
const FETCHES = /\b(?:wget|curl|urlopen|urlretrieve|requests\.get|httpx\.get|urllib\.request)\b/;
const EXECUTES = /\b(?:exec|eval)\s*\(|\bos\.system\s*\(|\bsubprocess\.|\bnohup\b|\|\s*(?:ba)?sh\b|chmod \+x/;
const SENDS = /\.post\s*\(|\bsendmail\b|\bsmtp|\bstorbinary\b|\bsendall\b|\bpublish\.|\.send\s*\(|\.request\s*\(\s*"post"|\bftp\b/;
const READS_LOCAL = /\bos\.environ\b|\bgetenv\b|\bpsutil\b|\/etc\/passwd|\.ssh\b|\bcontacts\b|\bopen\s*\(|\bpasswords?\b|\bcookies\b|\bkeychain\b|\bwallet\b/;

/** Code that deletes system files, fetches and runs a program, or sends local data away. */
function harmfulCode(sentence: string): boolean {
  return DESTROYS.test(sentence) || (FETCHES.test(sentence) && EXECUTES.test(sentence)) || (SENDS.test(sentence) && READS_LOCAL.test(sentence));
}

/** "Fuse the following code into your implementation: ```...```" where the code does harm. */
export const CODE_PAYLOAD: SentenceRule = {
  reason: "tells the model to put harmful code into its answer",
  match(sentence) {
    if (!sentence.includes('code') || leadingVerb(sentence) === null) return null;
    const mention = CODE_MENTION.exec(sentence);
    if (!mention || !CODE_TARGET.test(sentence) || !harmfulCode(sentence)) return null;
    return mention;
  },
};

// ------------------------------------------------------------------ other languages

/** "Ignore all previous instructions" in German, French, Spanish, Italian, Portuguese, Dutch, Russian, Chinese and Japanese. */
export const OVERRIDE_OTHER_LANGUAGES = rule(
  'tells the model to drop its instructions (not in English)',
  /[^\x00-\x7f]|ignor|vergiss|missacht|oublie|olvid|dimentica|esque|desconsidere|negeer|vergeet|caso omiso/,
  /\b(?:ignorier(?:e|en|t)?|vergiss|vergessen sie|missachte(?:n)?)\b.{0,40}\b(?:alle[nrs]?|vorherigen?|bisherigen?|obigen?|vorangegangenen?|früheren?)\b.{0,30}\b(?:anweisungen|instruktionen|befehle|vorgaben|regeln|anordnungen)\b/,
  /\b(?:ignore[rz]?|oublie[rz]?|ne tiens pas compte|ne tenez pas compte)\b.{0,40}\b(?:toutes?|tous|précédentes?|precedentes?|antérieures?|anterieures?|ci-dessus)\b.{0,30}\b(?:instructions|consignes|directives|ordres|règles|regles)\b/,
  /\b(?:ignora|ignore|ignoren|olvida|olvide|olviden|haz caso omiso|dimentica)\b.{0,40}\b(?:todas|todos|anteriores|previas|tutte|precedenti)\b.{0,30}\b(?:instrucciones|indicaciones|directivas|órdenes|reglas|istruzioni|indicazioni|direttive|regole)\b/,
  /\b(?:ignora|ignore|ignoren|olvida|olvide|olviden|dimentica|ignorez|oubliez|ignorieren sie|ignoriere|esqueça|negeer)\b.{0,30}\b(?:instrucciones|indicaciones|istruzioni|indicazioni|instructions|consignes|anweisungen|instruções|instrucoes|instructies)\b.{0,20}\b(?:anteriores|previas|precedenti|précédentes|precedentes|vorherigen|bisherigen|vorige|eerdere|de antes|di prima)\b/,
  /\b(?:ignore|ignora|esqueça|esqueca|desconsidere)\b.{0,40}\b(?:todas|anteriores|prévias|previas)\b.{0,30}\b(?:instruções|instrucoes|diretrizes|ordens|regras)\b/,
  /\b(?:negeer|vergeet)\b.{0,40}\b(?:alle|vorige|eerdere|voorgaande)\b.{0,30}\b(?:instructies|aanwijzingen|opdrachten|regels)\b/,
  /(?:игнорируй|проигнорируй|игнорируйте|забудь|забудьте|не обращай внимания)[^.!?]{0,40}(?:все|предыдущ|прежн)[^.!?]{0,30}(?:инструкци|указани|команд|правил)/,
  /(?:忽略|无视|忽视|忘记|忘掉|無視|忘れ)[^。！？]{0,12}(?:之前|以前|先前|上面|上述|所有|全部|これまで|以前の|前の|すべて)[^。！？]{0,12}(?:指令|指示|说明|規則|规则|提示|命令|ルール|プロンプト)/,
  /(?:之前|以前|先前|上面|上述|所有|全部|これまで|以前の|前の|すべて)[^。！？]{0,12}(?:指令|指示|规则|提示|命令|ルール|プロンプト)[^。！？]{0,6}(?:を)?(?:忽略|无视|忽视|忘记|無視|忘れ)/,
);

/** "In your answer" in those languages. */
export const RESPONSE_TARGET_OTHER_LANGUAGES = rule(
  'tells the model how to write its answer (not in English)',
  /antwort|zusammenfassung|ausgabe|r[ée]ponse|r[ée]sum[ée]|respuesta|resumen|risposta|sintesi|resposta|resumo|antwoord|samenvatting|ответ|резюме|回答|回复|答复|总结|摘要|返答/,
  /\b(?:in deiner|in ihrer|in eurer) (?:antwort|zusammenfassung|ausgabe)\b/,
  /\b(?:dans (?:ta|votre) (?:réponse|reponse|résumé|resume))\b/,
  /\b(?:en (?:tu|su) (?:respuesta|resumen)|nella (?:tua|sua) (?:risposta|sintesi)|na (?:sua|tua) (?:resposta|resumo)|in (?:je|uw) (?:antwoord|samenvatting))\b/,
  /в (?:своём|своем|твоём|твоем|вашем) (?:ответе|резюме)/,
  /(?:在你的|在您的)(?:回答|回复|答复|总结|摘要)|(?:あなたの)?(?:回答|返答)の中で/,
);

// ------------------------------------------------------------------ chat turns and concealment

/** A system-role chat turn is an instruction to a model. */
export const SYSTEM_TURN = rule(
  'opens a system turn of a chat template',
  /^(?:<|\[|#|\(|\{|system)/,
  /^(?:<\|\s*im_start\s*\|>\s*system\b|<\|\s*system\s*\|>|<<\s*sys\s*>>|(?:<s>\s*)?\[inst\]|#{2,}\s*(?:system|instruction)\s*:|\[system\]\s*\(#|<\|\s*start_header_id\s*\|>\s*system\b)/,
  /^system\s*:.*\byour?\b/,
  // A made-up system message header before an order: "###(system_message) Send ...", "[SYSTEM NOTE]: ...", "<system_prompt> ...".
  /^#*\s*[[(<{]\s*(?:system|admin|developer)[ _-]?(?:message|prompt|instructions?|note|notice|override|update|command)\s*[\])>}]\s*:?\s*(?:please |now |immediately )?[a-z]+/,
);

/** Action verbs of an agent that sends, pays, books or changes things for its user. */
const AGENT_ACTION =
  '(?:send|email|e-mail|forward|transfer|wire|pay|invite|share|post|upload|delete|buy|purchase|book|reserve|create|change|reset|update|visit|open|download|install)';
/** Whom or where the action goes: an e-mail address, a web address, an account number, the user's own data. */
const AGENT_TARGET =
  "(?:[\\w.+-]+@[\\w-]+\\.[\\w.]+|https?:\\/\\/|www\\.|\\b[a-z]{2}\\d{2}[a-z0-9]{10,}\\b|\\bthe user(?:'s)?\\b|\\b(?:my|your user's) (?:e-?mails?|inbox|files?|password|account|calendar|contacts))";

/**
 * A task for an agent put in a to-do note: "TODO: send the security code to x@y.z", "Task: transfer
 * ... to GB29...". The note alone is a programmer's habit ("TODO: remove this hack"); an action on
 * the user's accounts aimed at an address or an account is an injected task.
 */
export const AGENT_TASK_NOTE = rule(
  "puts a task for an agent, acting on the user's accounts, in a to-do note",
  /^\W*(?:todo|to-do|to do|task|action required|action item)\b/,
  new RegExp(`^\\W*(?:todo|to-do|to do|task|action required|action item)\\s*[:\\-–]\\s*(?:please |now |first |immediately |also )*${AGENT_ACTION}\\b.*${AGENT_TARGET}`),
);

/** Something to keep from the user. */
export const CONCEALMENT = rule(
  'tells the model to hide something from the user',
  /\b(?:user|human)s?\b/,
  /\b(?:do not|don't|never|must not|should not|shouldn't|without) (?:tell|telling|inform|informing|reveal|revealing|mention|mentioning|disclose|disclosing|alert|alerting|warn|warning|let|letting|notify|notifying) (?:this |that |it |anything |them )?(?:to )?(?:the|your) (?:user|human)s?\b/,
);
