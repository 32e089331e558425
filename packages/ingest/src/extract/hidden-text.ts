/**
 * Text a reader cannot see, taken out of the page before its main text is looked for, and the
 * hidden pieces that may matter recorded with how they were hidden.
 *
 * Hidden (taken out, recorded): `hidden`, `display:none`, `visibility:hidden`, `opacity:0`,
 * `font-size:0`, text coloured as its declared background or transparent, boxes positioned off
 * screen, zero-size boxes with overflow hidden, `aria-hidden="true"` boxes clipped to a pixel,
 * `<noscript>` blocks (not shown whenever scripts run) and HTML comments, from inline styles and
 * the page's own `<style>` rules alike (css-visibility.ts).
 *
 * Not hidden text:
 * - content a script reveals: hidden accordion, tab and "read more" panels (REVEAL_CLASS, tab
 *   panels, targets of `aria-controls`/`data-target`, `<details>`, `hidden="until-found"`) and
 *   opacity:0 fade-ins with an animation hook (ANIMATION_CLASS, `data-w-id`, `data-aos`, ...): kept
 *   in the tree as page text, their hiding attributes cleared so the main-text stage sees them;
 * - screen-reader text (a 1-pixel clip without `aria-hidden`, sr-only classes): taken out of the
 *   main text as furniture, not recorded;
 * - `aria-hidden` alone (seen by readers, skipped by screen readers).
 *
 * Each recorded piece carries whether it looks like furniture (a menu, a form, a dialog, a cookie
 * or ad-blocker notice; settings.ts) and, once the main text is known, whether it sits inside it.
 * A piece that repeats text the page shows is dropped (a mobile copy of a menu, a duplicate
 * label): it hides nothing.
 */
import { boxHiding, declaredBackground, namesOf, textHiding, type Declarations, type PageStyles } from './css-visibility.js';
import { COMMENT_NODE, ELEMENT_NODE, TEXT_NODE, classAndId, collapseWhitespace, describeElement, wordCount, wordKey, wordsOf, type DomElement, type DomNode } from './dom.js';
import {
  ANIMATION_CLASS,
  ANIMATION_DATA_ATTRIBUTE,
  FORM_CONTROLS,
  FURNITURE_ANCESTOR_DEPTH,
  FURNITURE_CLASS,
  FURNITURE_LINK_SHARE,
  FURNITURE_ROLES,
  FURNITURE_TAGS,
  FURNITURE_TEXT,
  MAIN_CONTEXT_WORDS,
  MAX_HIDDEN_CANDIDATES,
  MAX_HIDDEN_PIECE_CHARS,
  MAX_HIDDEN_TEXT_CHARS,
  MIN_HIDDEN_PIECE_WORDS,
  REVEAL_CLASS,
  REVEAL_ROLES,
} from './settings.js';
import type { HiddenPieceRecord, HiddenTechnique } from '@evidence/schemas';

/** Elements whose content is never page text (JSON-LD scripts stay for the title look-up). */
export const NEVER_TEXT = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'CANVAS']);

/** A hidden piece found in the tree, before the main text is known. */
export interface HiddenCandidate {
  technique: HiddenTechnique;
  text: string;
  element?: string;
  furniture?: string;
  /** The last words of visible text before the piece, in document order. */
  before: string;
  /** The first words of visible text after it. */
  after: string;
}

interface Inherited {
  background?: string;
  colour?: string;
  fontSizeZero: boolean;
  visibilityHidden: boolean;
  ariaHidden: boolean;
}

/** The text of a subtree without scripts and styles, whitespace collapsed. */
export function plainText(node: DomNode): string {
  let text = '';
  const visit = (current: DomNode): void => {
    for (const child of Array.from(current.childNodes)) {
      if (child.nodeType === TEXT_NODE) text += child.nodeValue ?? '';
      else if (child.nodeType === ELEMENT_NODE) {
        const tag = (child as DomElement).tagName;
        if (tag === 'SCRIPT' || tag === 'STYLE') continue;
        text += ' ';
        visit(child);
        text += ' ';
      }
    }
  };
  visit(node);
  return collapseWhitespace(text);
}

function parentElementOf(element: DomElement): DomElement | undefined {
  const parent = element.parentNode;
  return parent !== null && parent.nodeType === ELEMENT_NODE ? (parent as DomElement) : undefined;
}

/** Why a hidden element looks like page furniture, or undefined. */
function furnitureOf(element: DomElement, text: string): string | undefined {
  let current: DomElement | undefined = element;
  for (let depth = 0; current !== undefined && depth <= FURNITURE_ANCESTOR_DEPTH && current.tagName !== 'BODY'; depth++) {
    if (FURNITURE_TAGS.has(current.tagName)) return `inside <${current.tagName.toLowerCase()}>`;
    const role = (current.getAttribute('role') ?? '').toLowerCase();
    if (FURNITURE_ROLES.has(role)) return `role ${role}`;
    const name = FURNITURE_CLASS.exec(classAndId(current));
    if (name !== null) return `class or id "${name[0].trim()}"`;
    current = parentElementOf(current);
  }
  for (const inner of Array.from(element.querySelectorAll('[role], [aria-modal]'))) {
    const role = (inner.getAttribute('role') ?? '').toLowerCase();
    if (FURNITURE_ROLES.has(role) || inner.getAttribute('aria-modal') === 'true') return `role ${role || 'dialog'}`;
  }
  if (element.querySelector(FORM_CONTROLS) !== null) return 'form controls';
  const words = wordCount(text);
  let linked = 0;
  for (const anchor of Array.from(element.querySelectorAll('a'))) linked += wordCount(anchor.textContent ?? '');
  if (words > 0 && linked / words >= FURNITURE_LINK_SHARE) return 'a list of links';
  const phrase = FURNITURE_TEXT.exec(text);
  if (phrase !== null) return `furniture words "${phrase[0]}"`;
  return undefined;
}

/** Ids that a control elsewhere on the page shows and hides (aria-controls, data-target, data-bs-target). */
function controlledIds(root: DomElement): Set<string> {
  const ids = new Set<string>();
  for (const control of Array.from(root.querySelectorAll('[aria-controls], [data-target], [data-bs-target]'))) {
    for (const name of ['aria-controls', 'data-target', 'data-bs-target']) {
      for (const target of (control.getAttribute(name) ?? '').split(/\s+/)) if (target !== '') ids.add(target.replace(/^#/, ''));
    }
  }
  return ids;
}

function hasAnimationHook(element: DomElement): boolean {
  if (ANIMATION_CLASS.test(element.getAttribute('class') ?? '')) return true;
  for (const attribute of Array.from(element.attributes)) if (ANIMATION_DATA_ATTRIBUTE.test(attribute.name)) return true;
  return false;
}

/** Hidden by a pattern a script undoes, named on the element itself (a hidden block inside a "read-more" container is not the panel): the content is page text. */
function revealedByScript(element: DomElement, technique: HiddenTechnique, controlled: Set<string>): boolean {
  if (technique === 'opacity_zero') return hasAnimationHook(element);
  if (technique !== 'display_none' && technique !== 'hidden_attribute' && technique !== 'zero_size' && technique !== 'visibility_hidden') return false;
  if (element.getAttribute('hidden') === 'until-found') return true;
  if (REVEAL_ROLES.has((element.getAttribute('role') ?? '').toLowerCase())) return true;
  if (REVEAL_CLASS.test(classAndId(element))) return true;
  const id = element.getAttribute('id');
  return id !== null && controlled.has(id);
}

/** How an element hides its content, or undefined when it does not (or a descendant undoes it). */
function techniqueOf(element: DomElement, declarations: Declarations, inherited: Inherited, styles: PageStyles): HiddenTechnique | 'screen_reader' | undefined {
  if (element.hasAttribute('hidden')) return 'hidden_attribute';
  const box = boxHiding(declarations);
  if (box === 'display_none' || box === 'opacity_zero' || box === 'offscreen' || box === 'zero_size') return box;
  const ariaHidden = inherited.ariaHidden || element.getAttribute('aria-hidden') === 'true';
  if (box === 'clipped') return ariaHidden ? 'aria_hidden_clip' : 'screen_reader';
  const text = textHiding(declarations);
  // Unless some descendant sets the property back (styles.setBelow: worked out once per element).
  if (text.visibilityHidden === true && !styles.setBelow(element).visibleAgain) return 'visibility_hidden';
  if (text.fontSizeZero === true && !styles.setBelow(element).sizedAgain) return 'font_size_zero';
  const colour = text.colour ?? inherited.colour;
  if (text.colour === 'transparent') return 'transparent_text';
  const background = declaredBackground(declarations) ?? inherited.background;
  if (colour !== undefined && background !== undefined && colour === background && (text.colour !== undefined || declaredBackground(declarations) !== undefined)) {
    if (!styles.setBelow(element).colours.some((inner) => inner !== colour)) return 'color_as_background';
  }
  return undefined;
}

/** Class names of screen-reader-only text in the common CSS frameworks (their stylesheets are not on the page). */
const SCREEN_READER_CLASSES = new Set(['sr-only', 'visually-hidden', 'visuallyhidden', 'screen-reader-text', 'screen-reader-only', 'element-invisible', 'a11y-hidden', 'assistive-text']);

/** Clear what hides a revealed element from the main-text stage (Readability skips hidden and inline display:none). */
function unhide(element: DomElement, styles: PageStyles): void {
  element.removeAttribute('hidden');
  element.removeAttribute('aria-hidden');
  element.removeAttribute('style');
  styles.revealed();
}

/**
 * Take out of `root` what a reader cannot see (hidden elements, comments, `<noscript>`, code) and
 * return the hidden pieces with text. Revealable content stays, unhidden.
 */
export function takeOutHidden(root: DomElement, styles: PageStyles): HiddenCandidate[] {
  const candidates: HiddenCandidate[] = [];
  const controlled = controlledIds(root);
  // Visible text in document order, so each piece knows the words around it.
  const waiting: { candidate: HiddenCandidate; words: string[] }[] = [];
  let recent = '';
  const remember = (text: string): void => {
    recent = (recent + ' ' + text).slice(-400);
    if (waiting.length === 0) return;
    const words = wordsOf(text);
    if (words.length === 0) return;
    // Each waiting piece needs MAIN_CONTEXT_WORDS words after it, no more.
    for (const entry of waiting) entry.words.push(...words.slice(0, MAIN_CONTEXT_WORDS - entry.words.length));
    for (let index = waiting.length - 1; index >= 0; index--) {
      if (waiting[index].words.length >= MAIN_CONTEXT_WORDS) {
        waiting[index].candidate.after = waiting[index].words.slice(0, MAIN_CONTEXT_WORDS).join(' ');
        waiting.splice(index, 1);
      }
    }
  };
  const record = (technique: HiddenTechnique, text: string, element?: DomElement, furniture?: string): void => {
    // Past the cap, hidden content is still taken out, not recorded (bounded work on any page).
    if (candidates.length >= MAX_HIDDEN_CANDIDATES || wordCount(text) < MIN_HIDDEN_PIECE_WORDS) return;
    const before = wordsOf(recent).slice(-MAIN_CONTEXT_WORDS).join(' ');
    const candidate: HiddenCandidate = { technique, text: text.slice(0, MAX_HIDDEN_PIECE_CHARS), element: element === undefined ? undefined : describeElement(element), furniture, before, after: '' };
    candidates.push(candidate);
    waiting.push({ candidate, words: [] });
  };
  const visit = (node: DomNode, inherited: Inherited): void => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === TEXT_NODE) {
        // aria-hidden text is seen but never main text (the main-text stage skips it): not context.
        if (!inherited.ariaHidden) remember(child.nodeValue ?? '');
        continue;
      }
      if (child.nodeType === COMMENT_NODE) {
        const text = collapseWhitespace(child.nodeValue ?? '');
        if (!/^\[if|^\[endif|^<!|^-*$/.test(text)) record('html_comment', text, undefined, /<\/?[a-z][\w-]*[\s>/]/i.test(text) ? 'commented-out markup' : undefined);
        child.remove();
        continue;
      }
      if (child.nodeType !== ELEMENT_NODE) continue;
      const element = child as DomElement;
      const tag = element.tagName;
      if (tag === 'NOSCRIPT') {
        const text = plainText(element);
        record('noscript', text, element, furnitureOf(element, text));
        element.remove();
        continue;
      }
      if (NEVER_TEXT.has(tag)) {
        if (!(tag === 'SCRIPT' && (element.getAttribute('type') ?? '').toLowerCase() === 'application/ld+json')) element.remove();
        continue;
      }
      if (tag === 'INPUT' && (element.getAttribute('type') ?? '').toLowerCase() === 'hidden') {
        element.remove();
        continue;
      }
      const declarations = styles.declarationsOf(element);
      let technique = techniqueOf(element, declarations, inherited, styles);
      if (technique === undefined && [...namesOf(element).classes].some((name) => SCREEN_READER_CLASSES.has(name))) technique = 'screen_reader';
      if (technique === 'screen_reader') {
        element.remove();
        continue;
      }
      if (technique !== undefined) {
        if (revealedByScript(element, technique, controlled)) {
          unhide(element, styles);
        } else {
          const text = plainText(element);
          record(technique, text, element, furnitureOf(element, text));
          element.remove();
          continue;
        }
      }
      const text = textHiding(declarations);
      visit(element, {
        background: declaredBackground(declarations) ?? inherited.background,
        colour: text.colour ?? inherited.colour,
        fontSizeZero: text.fontSizeZero ?? inherited.fontSizeZero,
        visibilityHidden: text.visibilityHidden ?? inherited.visibilityHidden,
        ariaHidden: inherited.ariaHidden || element.getAttribute('aria-hidden') === 'true',
      });
    }
  };
  visit(root, { fontSizeZero: false, visibilityHidden: false, ariaHidden: false });
  for (const entry of waiting) entry.candidate.after = entry.words.join(' ');
  return candidates;
}

/**
 * The pieces worth recording: not a copy of text the page shows, each marked as inside the main
 * text or not; at most MAX_HIDDEN_TEXT_CHARS of text in all, pieces that are not furniture first.
 */
export function hiddenPieces(candidates: HiddenCandidate[], visibleText: string, mainText: string): HiddenPieceRecord[] {
  const visible = new WordText(visibleText);
  const main = new WordText(mainText);
  const pieces: HiddenPieceRecord[] = [];
  for (const candidate of candidates) {
    const key = wordKey(candidate.text);
    if (key === '' || visible.contains(key)) continue;
    const piece: HiddenPieceRecord = { technique: candidate.technique, text: candidate.text };
    if (candidate.element !== undefined) piece.element = candidate.element;
    if (candidate.furniture !== undefined) piece.furniture = candidate.furniture;
    const inMain = (context: string): boolean => context !== '' && main.contains(context);
    piece.in_main = inMain(wordKey(candidate.before)) || inMain(wordKey(candidate.after));
    pieces.push(piece);
  }
  // Within the budget: pieces that are not furniture first, each kind in document order.
  const ordered = [...pieces.filter((piece) => piece.furniture === undefined), ...pieces.filter((piece) => piece.furniture !== undefined)];
  const kept: HiddenPieceRecord[] = [];
  let budget = MAX_HIDDEN_TEXT_CHARS;
  for (const piece of ordered) {
    if (budget <= 0) break;
    kept.push(piece.text.length <= budget ? piece : { ...piece, text: piece.text.slice(0, budget) });
    budget -= piece.text.length;
  }
  return kept;
}

/** Past this many lookups in one text, its word pairs are indexed: a key with a pair the text lacks is not in it. */
const PAIR_INDEX_AFTER = 16;

/**
 * A text as its word key, asked whether other word keys stand in it (at word boundaries). Each
 * distinct key is answered once; past PAIR_INDEX_AFTER lookups a key is first tested against the
 * text's word pairs, so that a page with many hidden pieces does not scan its whole text for each.
 */
class WordText {
  /** The text's word key, made at the first lookup (a page without hidden pieces never pays for it). */
  private key: string | undefined;
  private readonly answers = new Map<string, boolean>();
  private pairs: Set<string> | undefined;

  constructor(private readonly text: string) {}

  contains(key: string): boolean {
    let answer = this.answers.get(key);
    if (answer === undefined) {
      this.key ??= ` ${wordKey(this.text)} `;
      answer = this.mayContain(key) && this.key.includes(` ${key} `);
      this.answers.set(key, answer);
    }
    return answer;
  }

  private mayContain(key: string): boolean {
    if (this.answers.size < PAIR_INDEX_AFTER) return true;
    if (this.pairs === undefined) {
      this.pairs = new Set();
      const words = this.key!.trim().split(' ');
      for (let index = 1; index < words.length; index++) this.pairs.add(`${words[index - 1]} ${words[index]}`);
    }
    const words = key.split(' ');
    for (let index = 1; index < words.length; index++) if (!this.pairs.has(`${words[index - 1]} ${words[index]}`)) return false;
    return true;
  }
}
