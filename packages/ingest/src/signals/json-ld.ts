/**
 * The JSON-LD blocks of a page, parsed tolerantly: real pages carry blocks that are not valid
 * JSON (trailing commas, raw line breaks inside strings, comments, CDATA wrappers, several
 * objects without an array). Each block is parsed as written, then once repaired; a block that
 * still fails is kept as text so that a caller can read single keys from it with a pattern.
 */

export interface JsonLdElement {
  tagName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
}

export interface JsonLdBlock<Element extends JsonLdElement = JsonLdElement> {
  /** The parsed value, or undefined when the block could not be parsed even after repair. */
  value: unknown;
  text: string;
  /** The `<script>` it came from. */
  element: Element;
}

const BLOCK_LIMIT = 20;
const BLOCK_CHARS = 200_000;

/** Undo the commonest damage: CDATA and comment wrappers, comments, trailing commas, raw control characters, objects side by side. */
function repaired(text: string): string {
  let fixed = text
    .replace(/^\s*(?:<!\[CDATA\[|<!--)/, '')
    .replace(/(?:\]\]>|-->)\s*$/, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/[\u0000-\u001f]+/g, ' ')
    .replace(/,\s*([}\]])/g, '$1')
    .trim()
    .replace(/;\s*$/, '');
  if (/^\{[\s\S]*\}\s*\{/.test(fixed)) fixed = `[${fixed.replace(/\}\s*\{/g, '},{')}]`;
  return fixed;
}

/** Whether an element is a JSON-LD block (`<script type="application/ld+json">`). */
export function isJsonLdScript(element: JsonLdElement): boolean {
  return element.tagName === 'SCRIPT' && (element.getAttribute('type') ?? '').trim().toLowerCase().startsWith('application/ld+json');
}

/** The JSON-LD blocks among a page's elements (at most 20), each parsed or kept as text. */
export function jsonLdBlocks<Element extends JsonLdElement>(elements: readonly Element[]): JsonLdBlock<Element>[] {
  const blocks: JsonLdBlock<Element>[] = [];
  const scripts = elements.filter(isJsonLdScript).slice(0, BLOCK_LIMIT);
  for (const script of scripts) {
    const text = (script.textContent ?? '').slice(0, BLOCK_CHARS);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      try {
        value = JSON.parse(repaired(text));
      } catch {
        value = undefined;
      }
    }
    blocks.push({ value, text, element: script });
  }
  return blocks;
}

/** Every value of `key` in a parsed block, depth first, at most `limit`. */
export function jsonLdValues(value: unknown, key: string, limit = 20, depth = 0, found: unknown[] = []): unknown[] {
  if (depth > 10 || found.length >= limit || value === null || typeof value !== 'object') return found;
  if (Array.isArray(value)) {
    for (const item of value) jsonLdValues(item, key, limit, depth + 1, found);
    return found;
  }
  const record = value as Record<string, unknown>;
  if (key in record) found.push(record[key]);
  for (const [name, child] of Object.entries(record)) if (name !== key && child !== null && typeof child === 'object') jsonLdValues(child, key, limit, depth + 1, found);
  return found;
}
