/** The text of a subtree written block by block, so ingest splits passages where the page breaks them. */
import { ELEMENT_NODE, TEXT_NODE, type DomElement, type DomNode } from './dom.js';
import { NEVER_TEXT } from './hidden-text.js';

const BLOCK_TAGS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'CAPTION', 'CENTER', 'DD', 'DETAILS', 'DIV', 'DL', 'DT', 'FIELDSET',
  'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV',
  'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TBODY', 'THEAD', 'TFOOT', 'TR', 'UL',
]);
/** Stands for a `<br>` while whitespace is collapsed. */
const LINE_BREAK = '\u2028';

/** The text of `root`, one block per paragraph-like element, blocks separated by blank lines. */
export function blockText(root: DomNode): string {
  const blocks: string[] = [];
  let inline = '';
  const flush = (): void => {
    const text = inline
      .replace(/[ \t\n\r\f\u00a0]+/g, ' ')
      .split(LINE_BREAK)
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .join('\n');
    if (text !== '') blocks.push(text);
    inline = '';
  };
  const visit = (node: DomNode): void => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === TEXT_NODE) {
        inline += child.nodeValue ?? '';
        continue;
      }
      if (child.nodeType !== ELEMENT_NODE) continue;
      const tag = (child as DomElement).tagName;
      if (NEVER_TEXT.has(tag)) continue;
      if (tag === 'BR') {
        inline += LINE_BREAK;
        continue;
      }
      if (tag === 'PRE') {
        flush();
        const pre = (child.textContent ?? '').replace(/\n\s*\n/g, '\n').trim();
        if (pre !== '') blocks.push(pre);
        continue;
      }
      const block = BLOCK_TAGS.has(tag);
      if (block) flush();
      visit(child);
      if (block) flush();
      else if (tag === 'TD' || tag === 'TH') inline += ' ';
    }
  };
  visit(root);
  flush();
  return blocks.join('\n\n');
}
