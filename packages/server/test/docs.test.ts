/**
 * The repository reads on its own: docs/API.md is what the catalog generates today, and every
 * relative link in README.md, ARCHITECTURE.md and docs/ resolves to a file (and heading) inside
 * the repository.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildApiReference, headingAnchor } from '@evidence/server';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const DOCUMENTS = ['README.md', 'ARCHITECTURE.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** Anchors of a markdown file's headings (GitHub's rule), outside fenced code. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (heading) anchors.add(headingAnchor(heading[1].replace(/`/g, '')));
  }
  return anchors;
}

/** Markdown link targets of a text, outside code spans and fences. */
function linksOf(text: string): string[] {
  const withoutCode = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...withoutCode.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]);
}

describe('the repository documents itself', () => {
  it('docs/API.md is generated from the catalog as it is now (npm run docs:api)', () => {
    const committed = readFileSync(join(ROOT, 'docs', 'API.md'), 'utf8');
    expect(committed === buildApiReference(), 'docs/API.md is out of date: run npm run docs:api').toBe(true);
  });

  it.each(DOCUMENTS)('every link in %s resolves inside the repository', (document) => {
    const text = readFileSync(join(ROOT, document), 'utf8');
    expect(text).not.toMatch(/shared\/(SPEC|DESIGN|STYLE)\.md/);
    for (const link of linksOf(text)) {
      if (/^[a-z]+:/i.test(link)) continue; // an absolute URL (http:, mailto:) is not a repository file
      const [path, anchor] = link.split('#');
      const target = path === '' ? join(ROOT, document) : resolve(dirname(join(ROOT, document)), path);
      expect(relative(ROOT, target).startsWith('..'), `${document}: ${link} leaves the repository`).toBe(false);
      expect(existsSync(target), `${document}: ${link} does not exist`).toBe(true);
      if (anchor !== undefined && statSync(target).isFile() && target.endsWith('.md')) {
        expect(anchorsOf(readFileSync(target, 'utf8')).has(anchor), `${document}: ${link} names no heading`).toBe(true);
      }
    }
  });
});
