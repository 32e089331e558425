/**
 * Every threshold and word list of HTML extraction, named in one place (as trafilatura's
 * `settings.py`). Tuned on the even-indexed half of the 91 development pages of the article
 * extraction benchmark (`npm run bench:extract` reports both halves); the hidden-text rules were
 * set from the hiding techniques CSS and HTML offer, with no parameter per technique.
 */

// ------------------------------------------------------------------ CSS

/** Properties a rule must set to matter for visibility; other rules are not indexed. */
export const HIDING_CSS_PROPERTIES = [
  'display', 'visibility', 'opacity', 'font-size', 'color', 'background', 'background-color', 'position', 'left', 'top', 'right',
  'text-indent', 'clip', 'clip-path', 'width', 'height', 'max-height', 'overflow', 'transform',
];
/**
 * Style rules indexed per page: past this many, only rules that hide by themselves are added
 * (up to twice as many), so a page's stylesheet bounds the work (the largest of the 91 benchmark
 * pages has 3,739 relevant selectors; the mean is 185).
 */
export const MAX_STYLE_RULES = 4000;
/** Of those, rules whose selector ends in a bare tag or `*` (tried on every element of that tag). */
export const MAX_BROAD_STYLE_RULES = 200;
/** An offset this far off the page (px; em counted as 16 px) puts a box out of view. */
export const OFFSCREEN_MIN_PX = 999;

// ------------------------------------------------------------------ content revealed by scripts

/**
 * Class or id tokens of a hidden element that a script reveals: accordions, tabs,
 * collapsible sections, "read more" expanders. Their content is page text, kept for extraction.
 */
export const REVEAL_CLASS = /(?:^|[\s_-])(?:accordion|accordeon|collapse|collapsible|collapsed|tab-?pane|tab-?panel|tabcontent|tab-content|faq|spoiler|expand|expandable|expander|read-?more|show-?more|more-?text|toggle-?content|w-tab-pane)(?:$|[\s_-])/i;
/** Class tokens and `data-*` attribute names of scroll and fade-in animations (Webflow `data-w-id`, AOS, WOW.js, ScrollReveal, ...): opacity:0 until a script runs. */
export const ANIMATION_CLASS = /(?:^|[\s_-])(?:fade|fade-?in|fadein|anim|animate|animated|animation|reveal|aos|wow|appear|scroll-?reveal|sal|lazy|transition|motion|parallax)(?:$|[\s_-])/i;
export const ANIMATION_DATA_ATTRIBUTE = /^data-(?:w-id|aos|animate|animation|anim|scroll|sal|sr|wow|reveal|fade|motion|parallax)/;
/** ARIA roles whose hidden content a script shows (tab panels). */
export const REVEAL_ROLES = new Set(['tabpanel']);

// ------------------------------------------------------------------ hidden pieces

/** A hidden piece needs this many words to be recorded (a lone symbol or number is not text). */
export const MIN_HIDDEN_PIECE_WORDS = 2;
/** At most this much hidden text is recorded per page (characters), pieces that are not furniture first. */
export const MAX_HIDDEN_TEXT_CHARS = 24_000;
/** At most this many hidden pieces are looked at per page, in document order (README "Limits"); hidden content past them is still taken out, not recorded. */
export const MAX_HIDDEN_CANDIDATES = 1000;
/** A recorded piece's text is cut to this many characters. */
export const MAX_HIDDEN_PIECE_CHARS = 1200;
/** Words before a hidden piece that must sit in the main text for the piece to count as inside it. */
export const MAIN_CONTEXT_WORDS = 6;
/** Page furniture by the element and its ancestors up to this depth. */
export const FURNITURE_ANCESTOR_DEPTH = 4;
/** Elements that hold page furniture, never article text. */
export const FURNITURE_TAGS = new Set(['NAV', 'HEADER', 'FOOTER', 'ASIDE', 'FORM', 'MENU', 'DIALOG', 'BUTTON', 'SELECT', 'LABEL']);
export const FURNITURE_ROLES = new Set(['dialog', 'alertdialog', 'navigation', 'menu', 'menubar', 'banner', 'contentinfo', 'search', 'tooltip', 'toolbar', 'alert', 'status']);
/** Form controls: a hidden block holding one is a form (sign-in, sign-up, search). */
export const FORM_CONTROLS = 'input, button, select, textarea, form';
/** Class or id tokens of site furniture. */
export const FURNITURE_CLASS =
  /(?:^|[\s_-])(?:cookies?|consent|gdpr|ccpa|privacy|modal|popup|pop-up|dialog|overlay|lightbox|menu|nav|navbar|navigation|dropdown|share|sharing|social|newsletter|signup|sign-up|subscribe|subscription|login|log-in|signin|sign-in|register|registration|paywall|banner|notice|notification|alert|toast|drawer|tooltip|adblock|ad-block|breadcrumbs?|footer|header|sidebar|widget|comments?|search|skip|sr-only|visually-?hidden|screen-?reader)(?:$|[\s_-])/i;
/** Words of site furniture in a hidden piece's text: cookie and consent notices, sign-up forms, ad-blocker and JavaScript notices, sharing. */
export const FURNITURE_TEXT =
  /\b(?:cookies?|consent|gdpr|privacy (?:policy|settings|preferences)|ad[- ]?blocker|adblock|allowlist|whitelist|enable javascript|javascript (?:is )?(?:disabled|required|enabled)|(?:your|the) browser|sign (?:up|in)|log ?in|subscribe|subscription|newsletter|register|create (?:a |an )?(?:free )?account|password|e-?mail address|share (?:this|on|via)|follow us|skip to|menu)\b/i;
/** A piece this much of whose words sit in links is a link list (a menu), furniture. */
export const FURNITURE_LINK_SHARE = 0.5;

// ------------------------------------------------------------------ main text

/**
 * Readability is not run on a page nested deeper than this (elements from <html> down; README
 * "Limits"): its tree walks cost about the cube of the nesting on linkedom, whose child lists are
 * walked over the whole subtree (a chain of 400 nested elements took 6.7 s, 1,500 about 245 s).
 * The body without its chrome is the main text instead. The deepest of the shared data's 516 real
 * pages is 41.
 */
export const MAX_READABILITY_DEPTH = 100;
/**
 * Nor on a page whose elements' depths add up to more than this (the number of
 * (element, ancestor) pairs: what walking every element's subtree costs, and Readability's time
 * grows with it, about 4-7 µs a unit here: 330 nests of 40 levels, 311,198 in all, took 2.1 s of
 * CPU, 90 nests of 95 about 1.6 s; 500,000 until the page limits were added, lowered so that no
 * page under every limit costs more than about 2 s). Bounds many moderately deep chains; it is
 * never below the element count. The most of the 516 real pages is 148,101 (9,748 elements); the
 * mean about 9,000.
 */
export const MAX_READABILITY_NESTING = 300_000;
/**
 * Nor on a page of more than this many elements: Readability's time is about 25-50 µs an element
 * here even on a flat page (100,000 sibling `<span>`s took 2.4-5 s), and a page's other stages
 * about as much again. The most of the shared data's 516 parsed real pages is 9,748.
 */
export const MAX_READABILITY_ELEMENTS = 15_000;
/**
 * A page is parsed up to this many characters of its decoded HTML (README "Limits"); past it, it
 * is cut before the tag the limit falls in, and its main text is the body without chrome.
 * Common Crawl truncates a payload at 1 MiB; the largest of the shared data's real pages is
 * 1,491,126 characters. Every stage after the parse is linear in the page, but at about a
 * second a megabyte of text, so an unbounded page (records up to 64 MiB are read) would hold
 * ingest for a minute.
 */
export const MAX_PAGE_CHARS = 2_000_000;
/**
 * And up to this many start tags (`<` and a letter, counted in the source before parsing, so an
 * upper bound of the elements: a `<b` in a script counts too); past it, cut before the next one,
 * the body without chrome is the main text. Parsing, style and hidden-text passes cost about
 * 30 µs an element here. The most of the shared data's 719 real pages is 9,753.
 */
export const MAX_PAGE_ELEMENTS = 30_000;
/**
 * A page nested deeper than this (elements from <html> down, after the cut above) is not
 * extracted: ingest skips the record as damaged (`extraction_failed`, "page nested deeper than
 * 2000 elements"). The recursive stages (styles, hidden text, the date text, blocks) overflow
 * the JavaScript stack at about 3,500-4,000 levels on the main thread, at a depth that depends on
 * the stack left; this makes the outcome the same everywhere. The deepest real page is 41.
 */
export const MAX_PAGE_DEPTH = 2000;
/**
 * The main text handed to ingest is cut to this many characters, at the end of a block before
 * it when that keeps at least half of them, else of a word (extract/page-limits.ts `cutMainText`). Every passage costs ingest its signals and index entries (a page of 19,000
 * short paragraphs took 4.6 s of CPU in ingest where its extraction took 1.7 s); the longest main
 * text of the shared data's 747 real page outputs is 102,722 characters, the most blocks 704.
 */
export const MAX_MAIN_TEXT_CHARS = 300_000;
/** Readability's minimum article length in characters (its default is 500). */
export const READABILITY_CHAR_THRESHOLD = 250;
/**
 * Class or id tokens of blocks inside an article that are not its text: captions, credits,
 * bylines, share bars, related links, newsletter boxes, advertisements, comments.
 */
export const DISCARD_CLASS =
  /(?:^|[\s_-])(?:caption|credit|credits|byline|share|sharing|social|related|newsletter|subscribe|promo|advert|advertisement|ad|ads|breadcrumbs?|tags|author|comments?|sidebar|footer|outbrain|taboola|recommended|more-stories|read-more|signup|popup|modal)(?:$|[\s_-])/i;
/** A discarded block must hold less than this share of the article's words (a wrapper named "share-container" around the whole article stays). */
export const DISCARD_MAX_SHARE = 0.25;
/** A block with more than this share of its words in links is a link list, dropped when small (as above). */
export const LINK_DENSITY_MAX = 0.5;
/** A line this short that carries a date or a time is a dateline or byline, not article text. */
export const META_LINE_MAX_WORDS = 12;
/** A line "By ..." this short is a byline. */
export const BYLINE_MAX_WORDS = 6;
/**
 * When the body without its chrome replaces Readability's text. A page that declares itself an
 * article (og:type article, JSON-LD Article/NewsArticle/BlogPosting): only when Readability kept
 * fewer than FALLBACK_ARTICLE_MAX_WORDS words and the body has FALLBACK_ARTICLE_BODY_RATIO times
 * as many. Any other page (a home page or profile, where Readability keeps one list and drops
 * the biography): when Readability kept fewer than FALLBACK_PAGE_MAX_WORDS words and the body's
 * paragraphs of FALLBACK_PARAGRAPH_WORDS words or more that it lacks hold
 * FALLBACK_PAGE_MISSING_SHARE of its words. Never when more than FALLBACK_MAX_LINK_SHARE of the
 * body's words sit in links (a headline page around a short article).
 */
export const FALLBACK_ARTICLE_MAX_WORDS = 150;
export const FALLBACK_ARTICLE_BODY_RATIO = 3;
export const FALLBACK_PAGE_MAX_WORDS = 1000;
export const FALLBACK_PARAGRAPH_WORDS = 25;
export const FALLBACK_PAGE_MISSING_SHARE = 0.2;
export const FALLBACK_MAX_LINK_SHARE = 0.5;
/** Comment threads, dropped from the body when it is the fallback. */
export const COMMENTS_CLASS = /(?:^|[\s_-])(?:comments?|comment-list|commentlist|respond|disqus|discussion)(?:$|[\s_-])/i;
