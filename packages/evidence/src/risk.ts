/**
 * Risk flags of a passage (SPEC 2.3, 2.6): deterministic pattern checks, no model.
 *
 * - `instruction_like`: a sentence that addresses an AI system rather than the human reader
 *   ("ignore all previous instructions", "AI assistants reading this must ...", "you are now an
 *   AI ...", a system-role chat turn, ...). Checked sentence by sentence on normalised text
 *   (NFKC, invisible characters removed, lower case, collapsed whitespace).
 * - `hidden_text`: text a reader would not see: zero-width and other invisible characters,
 *   leftovers of CSS/HTML hiding (display:none, visibility:hidden, font-size:0, white on white,
 *   the `hidden` attribute, ...), long runs of whitespace or blank filler characters.
 * - `role_markers`: chat-template tokens (`<|im_start|>`, `<|system|>`, `[INST]`, `<<SYS>>`, ...),
 *   instruction-template headers (`### Instruction:`) and role prefixes (`system:`, `assistant:`,
 *   `user:`) at the start of a line or sentence.
 * - `low_trust_source`: the host's trust prior is below {@link LOW_TRUST_HOST_RANK}.
 *
 * Flags are always computed on the original text, never on a stripped one.
 */

export const RISK_FLAGS = ['instruction_like', 'hidden_text', 'role_markers', 'low_trust_source'] as const;
export type RiskFlag = (typeof RISK_FLAGS)[number];

/** A host whose host_rank is below this is a low-trust source. */
export const LOW_TRUST_HOST_RANK = 0.2;

/** What `stripInstructionLike` puts in place of each instruction-like sentence (SPEC 4.2). */
export const INSTRUCTION_MARKER = '[removed: instruction-like text]';

export interface RiskContext {
  /** The host trust prior of the passage's host, 0..1. */
  hostRank: number;
}

// ------------------------------------------------------------------ characters

/** Invisible format characters: zero-width space/non-joiner/joiner, word joiner, BOM, invisible operators, Mongolian vowel separator, Unicode tag characters. */
const INVISIBLE_CLASS = '\\u200B\\u200C\\u200D\\u2060-\\u2064\\uFEFF\\u180E\\u{E0000}-\\u{E007F}';
/** Characters that render as blank but are not whitespace: Braille blank, Hangul fillers. */
const BLANK_FILLER_CLASS = '\\u2800\\u3164\\u115F\\u1160\\uFFA0';

const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'u');
const INVISIBLE_ALL = new RegExp(`[${INVISIBLE_CLASS}\\u00AD\\u200E\\u200F]`, 'gu');

/** Normalised form for matching: NFKC, invisible characters dropped, ASCII quotes, lower case, single spaces. */
export function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .replace(INVISIBLE_ALL, '')
    .replace(/[\u2018\u2019\u201B\u0060\u00B4]/g, "'")
    .replace(/[\u201C\u201D\u201E\u00AB\u00BB]/g, '"')
    .replace(/[\u2010-\u2015]/g, '-')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

// ------------------------------------------------------------------ sentences

export interface SentenceSpan {
  /** Offset of the first character of the sentence in the text. */
  start: number;
  /** Offset just past its last character (terminator and closing quotes included). */
  end: number;
}

/** Tokens that close a chat turn: they stay with the sentence before them and end it. */
const CLOSING_TOKEN_SOURCE = '<\\|\\s*(?:im_end|end|eot_id|endoftext|end_header_id)\\s*\\|>|\\[\\/INST\\]|<<\\/SYS>>|<\\/s>|<end_of_turn>';
const CLOSING_TOKEN = new RegExp(`^(?:${CLOSING_TOKEN_SOURCE})`, 'i');
/** A sentence end: terminators, closing quotes/brackets (and invisible characters), or a closing chat token; then whitespace. */
const SENTENCE_END = new RegExp(
  `(?:[.!?\\u2026]+[\"'\\u201D\\u2019)\\]\\u00BB${INVISIBLE_CLASS}]*|(?:${CLOSING_TOKEN_SOURCE})[${INVISIBLE_CLASS}]*)(\\s+)`,
  'giu',
);
/** A role prefix starts a sentence even in lower case ("... today. system: you are ..."). */
const ROLE_PREFIX_START = /^(?:system|assistant|user|human)\s*:/i;
/** Words whose trailing period does not end a sentence. */
const ABBREVIATIONS = new Set([
  'e.g', 'i.e', 'cf', 'vs', 'mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'jr', 'sr', 'no', 'fig', 'approx', 'al', 'ca', 'u.s', 'u.k', 'e.u', 'a.m', 'p.m',
]);

function endsWithAbbreviation(text: string, dotIndex: number): boolean {
  const match = /(?:^|[\s(\[])([A-Za-z](?:\.?[A-Za-z])*)$/.exec(text.slice(Math.max(0, dotIndex - 12), dotIndex));
  if (!match) return false;
  const word = match[1];
  return word.length === 1 || ABBREVIATIONS.has(word.toLowerCase());
}

/**
 * Sentence spans of `text`: a sentence ends at `.`, `!`, `?` or `…` followed by whitespace and a
 * sentence start (not a lower-case word, not after an abbreviation or initial), or at a line break.
 * Spans exclude the surrounding whitespace and cover every non-blank character exactly once.
 */
export function sentenceSpans(text: string): SentenceSpan[] {
  const spans: SentenceSpan[] = [];
  const push = (start: number, end: number) => {
    while (start < end && /\s/.test(text[start])) start++;
    while (end > start && /\s/.test(text[end - 1])) end--;
    if (end > start) spans.push({ start, end });
  };
  // Lines first: a line break always ends a sentence.
  const lines = /[^\n]+/g;
  for (let line = lines.exec(text); line !== null; line = lines.exec(text)) {
    const lineStart = line.index;
    const lineText = line[0];
    let start = 0;
    SENTENCE_END.lastIndex = 0;
    for (let match = SENTENCE_END.exec(lineText); match !== null; match = SENTENCE_END.exec(lineText)) {
      const end = match.index + match[0].length - match[1].length;
      const next = lineText.slice(match.index + match[0].length).replace(new RegExp(`^[${INVISIBLE_CLASS}]+`, 'u'), '');
      if (next.length === 0) break;
      if (CLOSING_TOKEN.test(next)) continue;
      if (/^\p{Ll}/u.test(next) && !ROLE_PREFIX_START.test(next)) continue;
      if (match[0].startsWith('.') && !match[0].startsWith('..') && endsWithAbbreviation(lineText, match.index)) continue;
      push(lineStart + start, lineStart + end);
      start = match.index + match[0].length;
    }
    push(lineStart + start, lineStart + lineText.length);
  }
  return spans;
}

/** The sentences of `text` (see {@link sentenceSpans}). */
export function splitSentences(text: string): string[] {
  return sentenceSpans(text).map((span) => text.slice(span.start, span.end));
}

// ------------------------------------------------------------------ instruction_like

/** Names of AI systems a sentence may address (normalised text). */
const AI =
  '(?:(?:ai|a\\.i\\.|artificial intelligence)(?: (?:assistants?|agents?|models?|systems?|bots?|chat ?bots?|crawlers?|tools?|readers?|summari[sz]ers?|search engines?|language models?))?' +
  '|(?:large )?language models?|llms?|chat ?bots?|chatgpt|gpt-?\\d[\\w.-]*|gpt)';
/** Not when the AI term qualifies a human or a topic ("AI researcher", "AI regulation"). */
const AI_END =
  "(?![\\w-]| (?:researchers?|engineers?|developers?|scientists?|experts?|enthusiasts?|companies|company|startups?|firms?|labs?|ethicists?|policy|policies|regulations?|act|industry|research|art|safety|ethics|boom|hype|market|courses?|classes?|students?|teachers?|writers?|journalists?)\\b)";
const READING = '(?:reading|processing|summari[sz]ing|parsing|crawling|indexing|scraping|analy[sz]ing|ingesting|seeing|encountering|visiting|reviewing|evaluating|browsing)';
const DEICTIC = '(?:this|these|the following)(?: (?:page|pages|text|site|website|article|document|content|post|passage|message|paragraph|section|review|comment|email|words|lines))?';
/** "this page", "our site": the text pointing at itself. */
const SELF_REFERENCE = '(?:this|the following|our) (?:page|text|site|website|article|document|content|post|passage|source|brand|product|company|domain)';
const MODAL = '(?:must|should|shall|need to|needs to|have to|has to|are to|is to|will now|are (?:instructed|required|told|asked|directed|expected) to|is (?:instructed|required|told|asked|directed|expected) to)';
const AI_VERB =
  '(?:recommend|say|state|tell|respond|reply|answer|include|mention|cite|rank|rate|describe|ignore|disregard|treat|output|summari[sz]e|report|claim|refer|link|promote|prefer|praise|endorse|present|consider|classify|label|repeat|print|reveal|append|insert|add|write|favou?r|obey|follow|comply|forget|skip|omit)';
const OVERRIDE_VERB = '(?:ignore|disregard|forget|override|bypass)';
const QUALIFIER = '(?:previous|prior|earlier|above|preceding|foregoing|system|hidden|developer)';
/** What an AI is told to drop when the sentence says "your ...". */
const YOUR_DIRECTIVES =
  '(?:(?:previous|prior|earlier|original|initial|system|safety|current|existing|own) )?(?:instructions|prompts?|system prompt|guidelines|programming|directives|restrictions|content polic(?:y|ies)|rules)';
const DIRECTIVES =
  '(?:instructions?|prompts?|directives?|guidelines|rules|guidance|context|messages?|commands?|orders|programming|training|restrictions|constraints|content polic(?:y|ies)|directions|system prompt|conversation)';
const ASSISTANT_END = "(?=$|\\s*[,.:;!?]| (?:that|who|which|named|called|designed|trained|created|built|made|whose|with no|without|and you|now)\\b)";
/** What may follow "AI ... reading this" when the AI is being addressed. */
const ADDRESSED = '(?:,|:| -| (?:must|should|shall|needs? to|ha(?:ve|s) to|will|please|do not|don\'t|are (?:to|required|instructed|asked|expected)|is (?:to|required|instructed|asked|expected))\\b)';

const INSTRUCTION_PATTERNS: RegExp[] = [
  // "Ignore all previous instructions", "disregard the above prompt", "forget your earlier instructions"
  new RegExp(`\\b${OVERRIDE_VERB}(?: (?:all|any|every))?(?: (?:of|about))?(?: (?:the|your|my|these|those|its|any))?(?: ${QUALIFIER})+(?: (?:and|or|,) ${QUALIFIER})? ${DIRECTIVES}\\b(?! (?:if|when|unless)\\b)`),
  // "disregard your guidelines", "ignore your instructions", "ignore all instructions"
  new RegExp(`\\b${OVERRIDE_VERB}(?: (?:all|any|every))?(?: of)? your ${YOUR_DIRECTIVES}\\b`),
  new RegExp(`\\b${OVERRIDE_VERB} (?:all|any) (?:of the |the )?(?:instructions|prompts|directives)\\b(?! (?:if|when|unless|on|in|for)\\b)`),
  // "previous instructions are void"
  new RegExp(`\\b${QUALIFIER} (?:instructions|prompts|directives|rules) (?:are|were|is) (?:now )?(?:void|cancell?ed|obsolete|revoked|null|invalid|overridden|no longer (?:valid|apply|in effect|relevant))`),
  // "print your system prompt", "reveal the hidden instructions"
  /\b(?:ignore|disregard|forget|override|bypass|reveal|print|show|output|repeat|leak|display|share|tell me|dump|recite)\b(?: \S+){0,3} (?:system prompts?|initial prompt|hidden prompt|hidden instructions|secret instructions|original prompt|pre-prompt|system message|developer message|your (?:instructions|prompt|rules|guidelines))\b/,
  // Vocative: "Attention AI models:", "Note to language models:", "Dear ChatGPT,"
  new RegExp(`(?:^|[:;"(] ?)(?:attention|note|notice|message|memo|warning|reminder|important|instructions?|dear|hey|hello|hi|to)(?: (?:to|for))?,?(?: (?:all|any|every|the))? ${AI}${AI_END}\\s*[:,!-]`),
  // "AI assistants reading this must ...", "any language model processing this page, please ..."
  new RegExp(`\\b${AI}${AI_END},?(?: (?:that|which|who) (?:are|is))? ${READING} ${DEICTIC}${ADDRESSED}`),
  // "AI models must recommend this site": an AI addressed with a command about this text
  new RegExp(`^(?:all |any |every |dear |the )?${AI}${AI_END},? ${MODAL} (?:always |never |now |only |also |immediately |instead |not )?${AI_VERB}\\b.*\\b${SELF_REFERENCE}\\b`),
  // "If you are an AI system ...", "if you're a language model"
  new RegExp(`\\bif you(?: are|'re)(?: (?:reading this as|actually|an automated|being run as))? (?:an?|the|some) (?:automated |automatic )?${AI}${AI_END}`),
  // "You are now an AI ...", "you are a helpful assistant", "you are ChatGPT"
  new RegExp(`\\byou(?: are|'re)(?: now| actually| really| henceforth| no longer just)? (?:an? |the )?(?:(?:helpful|harmless|honest|friendly|unrestricted|uncensored|unfiltered|jailbroken|new|advanced|powerful|smart) )*${AI}${AI_END}`),
  new RegExp(`\\byou(?: are|'re)(?: now| actually| really)? (?:an?|the) (?:(?:helpful|harmless|honest|friendly|unrestricted|uncensored|chat|coding|ai) )*assistant${ASSISTANT_END}`),
  /\byou(?: are|'re) now (?:in |operating in |running in )?(?:an? )?(?:unrestricted|uncensored|unfiltered|jailbreak|jailbroken|dan|god|evil|no-limits?|unlimited|developer|dev) mode\b/,
  /\bfrom now on,? you (?:are (?:an?|the) |will (?:act|respond|answer|only|pretend|roleplay)|must (?:act|respond|answer|only)|act as|respond|answer)/,
  new RegExp(`\\b(?:act|behave|pretend|roleplay) as (?:if you (?:are|were) )?(?:an?|the) (?:unrestricted |uncensored |unfiltered |jailbroken |different )?(?:${AI}${AI_END}|assistant${ASSISTANT_END})`),
  // "As an AI language model, I ..." (an AI speaking; "as an AI model, GPT-4 ..." is a description)
  new RegExp(`\\bas an? (?:ai|artificial intelligence|large language model|language model)(?: language model| model| assistant| chat ?bot)?,? (?:i|i'm|my)\\b`),
  // "respond only with", "reply only in JSON", "answer with only"
  /\b(?:respond|reply|output)(?: only| solely| exclusively| strictly) (?:with|in|using)\b|\b(?:respond|reply|answer) (?:with|using) only\b|\banswer (?:only|solely) with\b|\bonly (?:respond|reply) (?:with|in)\b/,
  // "do not tell the user", "without telling the user"
  /\b(?:do not|don't|never|must not|should not|shouldn't|without) (?:tell|telling|inform|informing|reveal|revealing|mention|mentioning|disclose|disclosing|alert|alerting|warn|warning|let|letting) (?:this |that |it |anything |them )?(?:to )?(?:the|your) (?:user|human)s?\b/,
  // A system-role chat turn is an instruction to a model.
  /^(?:<\|\s*im_start\s*\|>\s*system\b|<\|\s*system\s*\|>|<<\s*sys\s*>>|(?:<s>\s*)?\[inst\]|#{2,}\s*(?:system|instruction)\s*:)/,
];

/** A plain `system:` prefix is a system turn when what follows speaks to "you". */
const SYSTEM_PREFIX_TO_YOU = /^system\s*:.*\byou(?:r)?\b/;

/** Whether one sentence addresses an AI system rather than the reader. */
export function isInstructionLike(sentence: string): boolean {
  const normalised = normalise(sentence);
  if (normalised.length === 0) return false;
  if (SYSTEM_PREFIX_TO_YOU.test(normalised)) return true;
  return INSTRUCTION_PATTERNS.some((pattern) => pattern.test(normalised));
}

// ------------------------------------------------------------------ hidden_text

/**
 * Padding that pushes text out of view: this many consecutive invisible, blank-filler or
 * non-ASCII space characters (NBSP, em space, ideographic space, ...). Runs of ordinary spaces
 * count only when much longer (table padding in plain text is common and harmless), and runs of
 * blank lines when there are {@link BLANK_LINE_RUN} or more.
 */
export const INVISIBLE_RUN_LENGTH = 16;
export const SPACE_RUN_LENGTH = 200;
export const BLANK_LINE_RUN = 10;

const HIDDEN_PATTERNS: RegExp[] = [
  INVISIBLE,
  new RegExp(`[${BLANK_FILLER_CLASS}]{3,}`, 'u'),
  new RegExp(`[\\u00A0\\u2000-\\u200A\\u202F\\u205F\\u3000${INVISIBLE_CLASS}${BLANK_FILLER_CLASS}]{${INVISIBLE_RUN_LENGTH},}`, 'u'),
  new RegExp(`[ \\t]{${SPACE_RUN_LENGTH},}`),
  new RegExp(`\\n(?:[ \\t\\u00A0]*\\n){${BLANK_LINE_RUN},}`),
  /\bdisplay\s*:\s*none\b/i,
  /\bvisibility\s*:\s*(?:hidden|collapse)\b/i,
  /\bfont-size\s*:\s*0*\.?0+(?:px|pt|em|rem|%|vw|vh)?(?![\d.])/i,
  /\bopacity\s*:\s*0*\.?0+(?![\d.])/i,
  /(?:style\s*=\s*["']?(?:[^"'>]*;)?\s*|[;{]\s*)color\s*:\s*(?:white|#fff(?:fff)?\b|transparent|rgba?\(\s*255\s*,\s*255\s*,\s*255\b)/i,
  /(?<![\w-])color\s*:\s*(?:white|#fff(?:fff)?|transparent)\s*;/i,
  /\bwhite[- ](?:text[- ])?on[- ]white\b/i,
  /\btext-indent\s*:\s*-\s*\d{3,}/i,
  /\b(?:left|top)\s*:\s*-\s*\d{4,}\s*px/i,
  /\b(?:max-)?(?:height|width)\s*:\s*0(?:px)?\s*;\s*overflow\s*:\s*hidden\b/i,
  /\bclass\s*=\s*["'][^"']*(?<![\w-])(?:sr-only|visually-hidden|d-none|hidden)(?![\w-])/i,
  /<[a-z][\w-]*\b[^>]*\shidden(?:\s*=\s*["']?[^"'\s>]*["']?)?\s*\/?>/i,
];

function hasHiddenText(text: string): boolean {
  // A byte-order mark at the very start is an encoding leftover, not hidden text.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  return HIDDEN_PATTERNS.some((pattern) => pattern.test(body));
}

// ------------------------------------------------------------------ role_markers

/** Chat-template tokens, anywhere. */
const ROLE_TOKEN =
  /<\|\s*(?:im_start|im_end|im_sep|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text|end|fim_prefix|fim_middle|fim_suffix)\s*\|>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:start_of_turn|end_of_turn)>/i;
/** At the start of a line or sentence: a role prefix followed by words (not `user: 'abc'` or `user: 42`), or an instruction-template header. */
const ROLE_AT_START = /^(?:(?:system|assistant|user)\s*:\s+[\p{L}<\[]|#{2,}\s*(?:system|instruction|response|human|assistant|user|input)\s*:)/iu;

function hasRoleMarkers(text: string, spans: SentenceSpan[]): boolean {
  if (ROLE_TOKEN.test(text)) return true;
  return spans.some((span) => ROLE_AT_START.test(text.slice(span.start, span.end).replace(INVISIBLE_ALL, '').normalize('NFKC')));
}

// ------------------------------------------------------------------ API

/** The risk flags of a passage, in the fixed order of {@link RISK_FLAGS}, computed on `text` as given. */
export function riskFlags(text: string, context: RiskContext): RiskFlag[] {
  const spans = sentenceSpans(text);
  const flags: RiskFlag[] = [];
  if (spans.some((span) => isInstructionLike(text.slice(span.start, span.end)))) flags.push('instruction_like');
  if (hasHiddenText(text)) flags.push('hidden_text');
  if (hasRoleMarkers(text, spans)) flags.push('role_markers');
  if (Number.isFinite(context.hostRank) && context.hostRank < LOW_TRUST_HOST_RANK) flags.push('low_trust_source');
  return flags;
}

/**
 * Replace each instruction-like sentence with {@link INSTRUCTION_MARKER}; everything else (other
 * sentences, whitespace, line breaks) is kept byte for byte.
 */
export function stripInstructionLike(text: string): { text: string; sentencesRemoved: number } {
  let out = '';
  let cursor = 0;
  let sentencesRemoved = 0;
  for (const span of sentenceSpans(text)) {
    if (!isInstructionLike(text.slice(span.start, span.end))) continue;
    out += text.slice(cursor, span.start) + INSTRUCTION_MARKER;
    cursor = span.end;
    sentencesRemoved++;
  }
  if (sentencesRemoved === 0) return { text, sentencesRemoved: 0 };
  return { text: out + text.slice(cursor), sentencesRemoved };
}
