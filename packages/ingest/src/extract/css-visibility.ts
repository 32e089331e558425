/**
 * What CSS does to an element's visibility, from its inline `style` and the page's own `<style>`
 * elements (external stylesheets are not fetched). Rules are read when they are unconditional
 * (outside `@media`, `@supports` and other at-rules: a rule for small screens or print hides
 * nothing from a reader of the page as served) and their selectors are compounds of a tag,
 * classes, an id and attribute tests, optionally with descendant or child combinators; selectors
 * with pseudo-classes, sibling combinators or functions are skipped. Cascade: specificity, then
 * source order, inline style last, `!important` above all; except that a rule which hides by
 * itself (display:none, visibility:hidden, opacity 0, font-size 0, its colour as its background,
 * off screen) is honoured even where a more specific rule of the page sets the property back
 * (`.article p {font-size:13px}` against `.x {font-size:0}`): what the author meant to hide is
 * not indexed.
 */
import { HIDING_CSS_PROPERTIES, MAX_BROAD_STYLE_RULES, MAX_STYLE_RULES, OFFSCREEN_MIN_PX } from './settings.js';
import type { DomElement } from './dom.js';

/** A rule body that sets one of HIDING_CSS_PROPERTIES (a quick test before parsing it). */
const HIDING_PROPERTY = new RegExp(`(?:^|[;\\s])(?:${HIDING_CSS_PROPERTIES.join('|')})\\s*:`, 'i');

/** Property -> value, lower case, `!important` taken off. */
export type Declarations = Map<string, string>;

interface Compound {
  tag?: string;
  id?: string;
  classes: string[];
  attributes: { name: string; operator: string; value?: string }[];
}

interface StyleRule {
  /** Compounds left to right; the last one is the element itself, the others its ancestors. */
  compounds: Compound[];
  specificity: number;
  order: number;
  declarations: Declarations;
  important: Set<string>;
  /** The declarations hide an element by themselves (`hidesByItself`), decided once per rule. */
  hides: boolean;
}

/** Declarations of a `style` attribute or a rule body. */
export function parseDeclarations(text: string): { declarations: Declarations; important: Set<string> } {
  const declarations: Declarations = new Map();
  const important = new Set<string>();
  for (const declaration of text.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon <= 0) continue;
    const name = declaration.slice(0, colon).trim().toLowerCase();
    let value = declaration.slice(colon + 1).trim().toLowerCase();
    if (/!\s*important\s*$/.test(value)) {
      value = value.replace(/!\s*important\s*$/, '').trim();
      important.add(name);
    }
    declarations.set(name, value);
  }
  return { declarations, important };
}

const COMPOUND = /^([a-z][a-z0-9-]*|\*)?((?:[.#][\w-]+|\[[\w-]+(?:[~|^$*]?=\s*(?:"[^"]*"|'[^']*'|[^\]\s]*))?\s*\])*)$/i;
const COMPOUND_PART = /([.#])([\w-]+)|\[([\w-]+)(?:([~|^$*]?=)\s*(?:"([^"]*)"|'([^']*)'|([^\]\s]*)))?\s*\]/g;

function parseCompound(text: string): Compound | undefined {
  const match = COMPOUND.exec(text);
  if (match === null || text === '') return undefined;
  const compound: Compound = { classes: [], attributes: [] };
  if (match[1] !== undefined && match[1] !== '*') compound.tag = match[1].toUpperCase();
  COMPOUND_PART.lastIndex = 0;
  for (let part = COMPOUND_PART.exec(match[2]); part !== null; part = COMPOUND_PART.exec(match[2])) {
    if (part[1] === '.') compound.classes.push(part[2]);
    else if (part[1] === '#') compound.id = part[2];
    else compound.attributes.push({ name: part[3].toLowerCase(), operator: part[4] ?? '', value: part[5] ?? part[6] ?? part[7] });
  }
  return compound;
}

/** A selector of descendant/child compounds, or undefined when it uses what is not evaluated here. */
function parseSelector(text: string): Compound[] | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || /[:+~()]/.test(trimmed)) return undefined;
  const compounds: Compound[] = [];
  for (const piece of trimmed.replace(/\s*>\s*/g, ' ').split(/\s+/)) {
    const compound = parseCompound(piece);
    if (compound === undefined) return undefined;
    compounds.push(compound);
  }
  return compounds;
}

function specificityOf(compounds: Compound[]): number {
  let score = 0;
  for (const compound of compounds) score += (compound.id ? 10_000 : 0) + 100 * (compound.classes.length + compound.attributes.length) + (compound.tag ? 1 : 0);
  return score;
}

/** An element's class names and id, read once per element (attribute reads are slow in linkedom). */
export interface ElementNames {
  classes: Set<string>;
  id: string | null;
}
const NAMES = new WeakMap<DomElement, ElementNames>();

export function namesOf(element: DomElement): ElementNames {
  let names = NAMES.get(element);
  if (names === undefined) {
    const classText = element.getAttribute('class');
    names = { classes: new Set(classText === null ? [] : classText.split(/\s+/).filter((name) => name !== '')), id: element.getAttribute('id') };
    NAMES.set(element, names);
  }
  return names;
}

function matchesCompound(element: DomElement, compound: Compound): boolean {
  if (compound.tag !== undefined && element.tagName !== compound.tag) return false;
  if (compound.id === undefined && compound.classes.length === 0 && compound.attributes.length === 0) return true;
  const names = namesOf(element);
  if (compound.id !== undefined && names.id !== compound.id) return false;
  for (const name of compound.classes) if (!names.classes.has(name)) return false;
  for (const attribute of compound.attributes) {
    const value = element.getAttribute(attribute.name);
    if (value === null || (attribute.value !== undefined && !attributeMatches(value, attribute.operator, attribute.value))) return false;
  }
  return true;
}

/** CSS attribute selector operators: =, ~= (a word of), |= (equal or prefix-), ^=, $=, *=. */
function attributeMatches(value: string, operator: string, expected: string): boolean {
  switch (operator) {
    case '~=':
      return value.split(/\s+/).includes(expected);
    case '|=':
      return value === expected || value.startsWith(`${expected}-`);
    case '^=':
      return expected !== '' && value.startsWith(expected);
    case '$=':
      return expected !== '' && value.endsWith(expected);
    case '*=':
      return expected !== '' && value.includes(expected);
    default:
      return value === expected;
  }
}

function parentElement(element: DomElement): DomElement | undefined {
  const parent = element.parentNode;
  return parent !== null && parent.nodeType === 1 ? (parent as DomElement) : undefined;
}

/** The element matches the last compound and, for each earlier one, some ancestor in order. */
function matchesSelector(element: DomElement, compounds: Compound[]): boolean {
  if (!matchesCompound(element, compounds[compounds.length - 1])) return false;
  let ancestor = parentElement(element);
  for (let index = compounds.length - 2; index >= 0; index--) {
    while (ancestor !== undefined && !matchesCompound(ancestor, compounds[index])) ancestor = parentElement(ancestor);
    if (ancestor === undefined) return false;
    ancestor = parentElement(ancestor);
  }
  return true;
}

/** The top-level rule text of a stylesheet, without comments and without at-rule blocks. */
function unconditionalRules(css: string): string {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  let out = '';
  let depth = 0;
  let skipping = 0;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (depth === 0 && character === '@') {
      // An at-rule: a statement up to ';' or a block up to its matching '}'.
      const semicolon = text.indexOf(';', index);
      const brace = text.indexOf('{', index);
      if (brace < 0 || (semicolon >= 0 && semicolon < brace)) {
        index = semicolon < 0 ? text.length : semicolon;
        continue;
      }
      skipping = 1;
      index = brace;
      while (skipping > 0 && ++index < text.length) {
        if (text[index] === '{') skipping++;
        else if (text[index] === '}') skipping--;
      }
      continue;
    }
    if (character === '{') depth++;
    else if (character === '}') depth = Math.max(0, depth - 1);
    out += character;
  }
  return out;
}

const NO_DECLARATIONS: Declarations = new Map();

/** What some descendant of an element sets of the inherited text properties. */
export interface SetBelow {
  /** Some descendant sets visibility to visible. */
  visibleAgain: boolean;
  /** Some descendant sets a font size other than zero. */
  sizedAgain: boolean;
  /** Colours descendants set, at most two (two differ from any one colour). */
  colours: string[];
}

function childElements(element: DomElement): DomElement[] {
  const children: DomElement[] = [];
  for (const child of Array.from(element.childNodes)) if (child.nodeType === 1) children.push(child as DomElement);
  return children;
}

/** The attributes hidden-text.ts clears on an element a script reveals (`unhide`). */
const REVEAL_ATTRIBUTES = new Set(['hidden', 'aria-hidden', 'style']);

/**
 * The hiding-relevant rules of a page's `<style>` elements, indexed by what they can match. Each
 * element's declarations are worked out once and kept (an element is asked about again for every
 * hiding ancestor it sits under).
 */
export class PageStyles {
  private readonly byKey = new Map<string, StyleRule[]>();
  private order = 0;
  private broadRules = 0;
  private known = new WeakMap<DomElement, Declarations>();
  private below = new WeakMap<DomElement, SetBelow>();
  /** Some rule tests an attribute that revealing an element clears: its answers may change then. */
  private readsRevealAttributes = false;
  /** Rules kept (those that set a property visibility depends on). */
  size = 0;

  constructor(document: DomElement) {
    for (const style of Array.from(document.querySelectorAll('style'))) {
      const media = (style.getAttribute('media') ?? '').toLowerCase();
      if (media !== '' && !/\b(?:all|screen)\b/.test(media)) continue;
      this.add(style.textContent ?? '');
    }
  }

  private add(css: string): void {
    for (const [selectors, body] of ruleParts(unconditionalRules(css))) {
      if (!HIDING_PROPERTY.test(body)) continue;
      const { declarations, important } = parseDeclarations(body);
      if (![...declarations.keys()].some((name) => HIDING_CSS_PROPERTIES.includes(name))) continue;
      const hides = hidesByItself(declarations);
      // Bounded work on any page: rules that hide by themselves always count, the others up to a cap.
      if (this.size >= MAX_STYLE_RULES && (this.size >= 2 * MAX_STYLE_RULES || !hides)) continue;
      for (const selectorText of selectors.split(',')) {
        const compounds = parseSelector(selectorText);
        if (compounds === undefined) continue;
        const rule: StyleRule = { compounds, specificity: specificityOf(compounds), order: this.order++, declarations, important, hides };
        if (compounds.some((compound) => compound.attributes.some((attribute) => REVEAL_ATTRIBUTES.has(attribute.name)))) this.readsRevealAttributes = true;
        const last = compounds[compounds.length - 1];
        const key = last.id !== undefined ? `#${last.id}` : last.classes.length > 0 ? `.${last.classes[0]}` : last.tag !== undefined ? last.tag : '*';
        // A rule keyed by a tag (or *) is tried on every such element: those are bounded apart.
        const broad = key === '*' || key === last.tag;
        if (broad && this.broadRules >= MAX_BROAD_STYLE_RULES) continue;
        if (broad) this.broadRules++;
        const list = this.byKey.get(key);
        if (list === undefined) this.byKey.set(key, [rule]);
        else list.push(rule);
        this.size++;
      }
    }
  }

  /**
   * An element's `hidden`, `aria-hidden` and `style` were cleared (a revealed element): answers
   * kept for other elements are dropped when a rule could read those attributes on an ancestor.
   */
  revealed(): void {
    if (!this.readsRevealAttributes) return;
    this.known = new WeakMap();
    this.below = new WeakMap();
  }

  /**
   * What the element's descendants set of the inherited text properties (a descendant may set
   * back what the element hides: a child of a font-size:0 row with its own size is seen). Worked
   * out bottom up, once per element, without recursion: nested hiding stays linear.
   */
  setBelow(element: DomElement): SetBelow {
    const known = this.below.get(element);
    if (known !== undefined) return known;
    const stack: Array<{ element: DomElement; children?: DomElement[] }> = [{ element }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.children === undefined) {
        top.children = childElements(top.element);
        for (const child of top.children) if (!this.below.has(child)) stack.push({ element: child });
        continue;
      }
      stack.pop();
      if (this.below.has(top.element)) continue;
      const result: SetBelow = { visibleAgain: false, sizedAgain: false, colours: [] };
      for (const child of top.children) {
        const own = textHiding(this.declarationsOf(child));
        const inner = this.below.get(child)!;
        if (own.visibilityHidden === false || inner.visibleAgain) result.visibleAgain = true;
        if (own.fontSizeZero === false || inner.sizedAgain) result.sizedAgain = true;
        for (const colour of own.colour === undefined ? inner.colours : [own.colour, ...inner.colours]) {
          if (result.colours.length < 2 && !result.colours.includes(colour)) result.colours.push(colour);
        }
      }
      this.below.set(top.element, result);
    }
    return this.below.get(element)!;
  }

  /** The element's declarations after the cascade (stylesheet rules, then its `style` attribute). */
  declarationsOf(element: DomElement): Declarations {
    let declarations = this.known.get(element);
    if (declarations === undefined) {
      declarations = this.cascade(element);
      this.known.set(element, declarations);
    }
    return declarations;
  }

  private cascade(element: DomElement): Declarations {
    const matched: StyleRule[] = [];
    if (this.size > 0) {
      const names = namesOf(element);
      const collect = (key: string): void => {
        const rules = this.byKey.get(key);
        if (rules !== undefined) for (const rule of rules) if (matchesSelector(element, rule.compounds)) matched.push(rule);
      };
      collect('*');
      collect(element.tagName);
      if (names.id !== null) collect(`#${names.id}`);
      for (const name of names.classes) collect(`.${name}`);
      if (matched.length > 1) matched.sort((left, right) => left.specificity - right.specificity || left.order - right.order);
    }
    const inline = element.getAttribute('style');
    if (matched.length === 0 && inline === null) return NO_DECLARATIONS;
    const result: Declarations = new Map();
    const importantSet = new Set<string>();
    const apply = (declarations: Declarations, important: Set<string>): void => {
      for (const [name, value] of declarations) {
        if (importantSet.has(name) && !important.has(name)) continue;
        result.set(name, value);
        if (important.has(name)) importantSet.add(name);
      }
    };
    for (const rule of matched) apply(rule.declarations, rule.important);
    // A rule that hides wins over a more specific one that sets the property back: text an
    // author's rule means to hide stays out of the index (an inline style still decides).
    for (const rule of matched) if (rule.hides) for (const [name, value] of rule.declarations) result.set(name, value);
    if (inline !== null) {
      const parsed = parseDeclarations(inline);
      apply(parsed.declarations, parsed.important);
    }
    return result;
  }
}

// ------------------------------------------------------------------ reading declarations

const NAMED_COLOURS: Record<string, string> = { white: '#ffffff', black: '#000000', red: '#ff0000', transparent: 'transparent' };

/** A colour as `#rrggbb` (or `transparent`), when it can be read without a stylesheet's context. */
export function normaliseColour(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (NAMED_COLOURS[text] !== undefined) return NAMED_COLOURS[text];
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})\b/.exec(text);
  if (hex !== null) return `#${hex[1].length === 3 ? [...hex[1]].map((digit) => digit + digit).join('') : hex[1]}`;
  const rgb = /^rgba?\(\s*(\d+)\s*,?\s*(\d+)\s*,?\s*(\d+)\s*(?:[,/]\s*([\d.]+%?))?\s*\)/.exec(text);
  if (rgb !== null) {
    if (rgb[4] !== undefined && parseFloat(rgb[4]) === 0) return 'transparent';
    return `#${[rgb[1], rgb[2], rgb[3]].map((part) => Math.min(255, Number(part)).toString(16).padStart(2, '0')).join('')}`;
  }
  return undefined;
}

/** The background colour an element declares (`background-color`, or a plain colour as `background`). */
export function declaredBackground(declarations: Declarations): string | undefined {
  const colour = normaliseColour(declarations.get('background-color'));
  if (colour !== undefined && colour !== 'transparent') return colour;
  const shorthand = declarations.get('background');
  if (shorthand === undefined) return undefined;
  const first = normaliseColour(shorthand.split(/\s+(?![^(]*\))/)[0]);
  return first !== 'transparent' ? first : undefined;
}

function isZeroLength(value: string | undefined): boolean {
  return value !== undefined && /^-?0*\.?0+(?:px|pt|em|rem|%|vw|vh)?$/.test(value);
}

function pixels(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(-?\d+(?:\.\d+)?)(px|pt|em|rem|vw|vh|%)?$/.exec(value.trim());
  if (match === null) return undefined;
  const number = parseFloat(match[1]);
  const unit = match[2] ?? 'px';
  return unit === 'px' || unit === 'pt' ? number : unit === 'em' || unit === 'rem' ? number * 16 : unit === 'vw' || unit === 'vh' || unit === '%' ? number * 10 : number;
}

/** How a set of declarations hides an element's own box, if it does (inheritable properties aside). */
export type BoxHiding = 'display_none' | 'opacity_zero' | 'offscreen' | 'zero_size' | 'clipped';

export function boxHiding(declarations: Declarations): BoxHiding | undefined {
  if (declarations.size === 0) return undefined;
  const value = (name: string): string | undefined => declarations.get(name);
  if (value('display') === 'none') return 'display_none';
  const opacity = value('opacity');
  if (opacity !== undefined && /^0*\.?0+%?$/.test(opacity)) return 'opacity_zero';
  const positioned = /absolute|fixed/.test(value('position') ?? '');
  const offscreen = (name: string): boolean => {
    const amount = pixels(value(name));
    return amount !== undefined && amount <= -OFFSCREEN_MIN_PX;
  };
  if (positioned && (offscreen('left') || offscreen('top') || offscreen('right'))) return 'offscreen';
  const indent = pixels(value('text-indent'));
  if (indent !== undefined && indent <= -OFFSCREEN_MIN_PX) return 'offscreen';
  const transform = value('transform') ?? '';
  const translated = /translate(?:x|y|3d)?\(\s*(-\d+(?:\.\d+)?)px/.exec(transform);
  if (translated !== null && Number(translated[1]) <= -OFFSCREEN_MIN_PX) return 'offscreen';
  const clip = value('clip') ?? '';
  const clipPath = value('clip-path') ?? '';
  if ((positioned && /rect\(\s*0/.test(clip)) || /inset\(\s*(?:50%|100%)/.test(clipPath)) return 'clipped';
  const overflowHidden = /hidden|clip/.test(value('overflow') ?? '');
  const tiny = (name: string): boolean => {
    const amount = pixels(value(name));
    return amount !== undefined && amount <= 1;
  };
  if (overflowHidden && (isZeroLength(value('height')) || isZeroLength(value('max-height')) || isZeroLength(value('width')))) return 'zero_size';
  if (overflowHidden && positioned && tiny('height') && tiny('width')) return 'clipped';
  return undefined;
}

/** Inherited text properties an element sets: a zero font size, visibility, colour. */
export function textHiding(declarations: Declarations): { fontSizeZero?: boolean; visibilityHidden?: boolean; colour?: string } {
  const result: { fontSizeZero?: boolean; visibilityHidden?: boolean; colour?: string } = {};
  const fontSize = declarations.get('font-size');
  if (fontSize !== undefined) result.fontSizeZero = isZeroLength(fontSize);
  const visibility = declarations.get('visibility');
  if (visibility !== undefined) result.visibilityHidden = visibility === 'hidden' || visibility === 'collapse';
  const colour = normaliseColour(declarations.get('color'));
  if (colour !== undefined) result.colour = colour;
  return result;
}

/** The declarations of one rule hide an element without help from others. */
function hidesByItself(declarations: Declarations): boolean {
  if (boxHiding(declarations) !== undefined) return true;
  const text = textHiding(declarations);
  if (text.fontSizeZero === true || text.visibilityHidden === true || text.colour === 'transparent') return true;
  return text.colour !== undefined && text.colour === declaredBackground(declarations);
}

/**
 * The `selectors { declarations }` pairs of a stylesheet without nested blocks, as the regular
 * expression `/([^{}]+)\{([^{}]*)\}/g` would match them, in one pass: that expression backtracks
 * quadratically over a long run without braces (an 80 KB `<style>` of one unterminated rule took
 * 8.7 s; a megabyte would hold ingest for minutes).
 */
function* ruleParts(text: string): Generator<[selectors: string, body: string]> {
  let position = 0;
  for (;;) {
    const open = nextBrace(text, position);
    if (open < 0) return;
    // a `}` first, or a `{` with no selector before it: nothing starts here
    if (text[open] === '}' || open === position) {
      position = open + 1;
      continue;
    }
    const close = nextBrace(text, open + 1);
    if (close < 0) return;
    if (text[close] === '{') {
      position = open + 1;
      continue;
    }
    yield [text.slice(position, open), text.slice(open + 1, close)];
    position = close + 1;
  }
}

/** Index of the next `{` or `}` at or after `from`, or -1. */
function nextBrace(text: string, from: number): number {
  for (let index = from; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x7b || code === 0x7d) return index;
  }
  return -1;
}
