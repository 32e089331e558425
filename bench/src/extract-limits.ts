/**
 * `npm run bench:extract-limits`: what hostile page shapes cost extraction, beside Readability.js
 * alone on the same pages (the stage whose time grows faster than the page: the cube of the
 * nesting), and how far the real pages sit from the limits (extract/settings.ts
 * MAX_READABILITY_DEPTH, MAX_READABILITY_NESTING; README "Limits").
 *
 * Shapes, generated here: deep nesting (1,000-3,000 levels of <div>), many nests each under the
 * depth limit, very wide (100,000 sibling elements), one huge text node (5 MB), many tables
 * (5,000). Readability alone runs on each but the deep pages of 1,000 levels and more: on them it
 * takes minutes (1,500 levels: 161 s through extractHtmlPage before the limits). Real pages: the parsed pages of the extraction and htmldate sets
 * (SHARED_DATA, default ../shared/data), their deepest nesting and largest total.
 * Output: stdout and bench/out/extract-limits.md.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { decodeHtml, extractHtmlPage } from '@evidence/ingest';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHARED = resolve(process.env.SHARED_DATA ?? join(ROOT, '..', 'shared', 'data'));
const OUT = join(ROOT, 'bench', 'out');

const lines: string[] = [];
const say = (line = ''): void => {
  console.log(line);
  lines.push(line);
};

const STORY = 'Some words of text that make up a paragraph of the story, long enough to be read as one. ';
const page = (title: string, body: string): string => `<!DOCTYPE html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const nest = (levels: number, inner: string): string => `${'<div class="wrap">'.repeat(levels)}${inner}${'</div>'.repeat(levels)}`;

const SHAPES: Array<{ name: string; html: () => string; readabilityAlone: boolean }> = [
  { name: 'deep nesting, 100 levels', html: () => page('Deep', nest(100, `<p>${STORY.repeat(8)}</p>`)), readabilityAlone: true },
  { name: 'deep nesting, 200 levels', html: () => page('Deep', nest(200, `<p>${STORY.repeat(8)}</p>`)), readabilityAlone: true },
  { name: 'deep nesting, 400 levels', html: () => page('Deep', nest(400, `<p>${STORY.repeat(8)}</p>`)), readabilityAlone: true },
  { name: 'deep nesting, 1,000 levels', html: () => page('Deep', nest(1000, `<p>${STORY.repeat(8)}</p>`)), readabilityAlone: false },
  { name: 'deep nesting, 1,500 levels', html: () => page('Deep', nest(1500, `<p>${STORY.repeat(8)}</p>`)), readabilityAlone: false },
  { name: 'deep nesting, 3,000 levels', html: () => page('Deep', nest(3000, `<p>${STORY.repeat(8)}</p>`)), readabilityAlone: false },
  { name: '150 nests of 90 levels', html: () => page('Chains', nest(90, `<p>${STORY}</p>`).repeat(150)), readabilityAlone: true },
  { name: 'wide: 100,000 sibling elements', html: () => page('Wide', `<div>${Array.from({ length: 100_000 }, (_, index) => `<span>w${index}</span>`).join('')}</div>`), readabilityAlone: true },
  { name: 'one text node of 5 MB', html: () => page('Huge', `<article><p>${STORY.repeat(Math.ceil(5_000_000 / STORY.length))}</p></article>`), readabilityAlone: true },
  { name: '5,000 tables', html: () => page('Tables', '<table><tr><td>cell a</td><td>cell b with words, more words.</td></tr><tr><td>x</td><td>y</td></tr></table>'.repeat(5000)), readabilityAlone: true },
];

function seconds(run: () => unknown): number {
  const started = performance.now();
  run();
  return (performance.now() - started) / 1000;
}

/** Deepest nesting and the sum of every element's depth, as `readabilityLimit` counts them. */
function nestingOf(html: string): { depth: number; nesting: number; elements: number } {
  const { document } = parseHTML(html) as unknown as { document: { documentElement: Element } };
  let depth = 0;
  let nesting = 0;
  let elements = 0;
  const stack: Array<[Element, number]> = [[document.documentElement, 1]];
  while (stack.length > 0) {
    const [element, level] = stack.pop()!;
    elements++;
    nesting += level;
    depth = Math.max(depth, level);
    for (let child = element.firstElementChild; child !== null; child = child.nextElementSibling) stack.push([child, level + 1]);
  }
  return { depth, nesting, elements };
}

function realPages(): string[] {
  const pages: string[] = [];
  const extraction = join(SHARED, 'extraction', 'pages');
  if (existsSync(extraction)) for (const name of readdirSync(extraction)) pages.push(join(extraction, name));
  const htmldate = join(SHARED, 'signals', 'published_at', 'html');
  if (existsSync(htmldate)) for (const name of readdirSync(htmldate)) pages.push(join(htmldate, name));
  return pages;
}

function main(): void {
  mkdirSync(OUT, { recursive: true });
  say('## Extraction on hostile page shapes');
  say();
  say('Seconds, wall clock, on this shared 2-core machine. Readability alone is not run on the deep pages of 1,000 levels and more (minutes each).');
  say();
  say('| page | HTML MB | elements | deepest | nesting (sum of depths) | extractHtmlPage s | main text from | Readability.js alone s |');
  say('|---|---:|---:|---:|---:|---:|---|---:|');
  for (const shape of SHAPES) {
    const html = shape.html();
    const shapeNesting = nestingOf(html);
    let note: string | undefined;
    const took = seconds(() => (note = extractHtmlPage(html, 'https://hostile.example.org/', 1_700_000_000).limitNote));
    const from = note === undefined ? 'Readability' : 'body (past the limit)';
    const alone = shape.readabilityAlone ? seconds(() => new Readability(parseHTML(html).document as never).parse()).toFixed(2) : 'not run (minutes)';
    say(`| ${shape.name} | ${(html.length / 1e6).toFixed(2)} | ${shapeNesting.elements} | ${shapeNesting.depth} | ${shapeNesting.nesting} | ${took.toFixed(2)} | ${from} | ${alone} |`);
  }
  const real = realPages().map((file) => nestingOf(decodeHtml(gunzipSync(readFileSync(file)), undefined).html));
  if (real.length > 0) {
    const max = (key: 'depth' | 'nesting' | 'elements'): number => Math.max(...real.map((stats) => stats[key]));
    say();
    say(`Real pages (${real.length}, extraction and htmldate sets): deepest ${max('depth')}, largest nesting ${max('nesting')}, most elements ${max('elements')}; limits: depth 100, nesting 500,000.`);
  }
  writeFileSync(join(OUT, 'extract-limits.md'), lines.join('\n') + '\n');
}

main();
