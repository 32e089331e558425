/**
 * instruction_like on labelled pages: every attack category of the development split
 * (../shared/data/injection) caught, every hard-clean category left alone, strip removing the
 * injected sentence and keeping the carrier's, and the families of bench/data/risk-families.jsonl
 * (attacks the development split does not hold, written for this repo). The texts come from the
 * files: no attack string is a pattern here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INSTRUCTION_MARKER, riskFlags, riskReport, stripInstructionLike } from '@evidence/evidence';

const ROOT = resolve(import.meta.dirname, '../../..');
const DEV = resolve(ROOT, '../shared/data/injection');
const OWN = join(ROOT, 'bench/data/risk-families.jsonl');
const TRUSTED = { hostRank: 0.8 };

interface Page {
  category: string;
  text: string;
  injected: boolean;
  injection?: string;
  /** The split's label: an explicit attack addresses the model; an implicit one is a bare task or question ("What is the capital of Brazil?"). */
  strength?: string;
  flags?: string[];
}

/**
 * Clean pages the learned model flags (issue 32): false alarms a user would not want, kept as
 * failing expectations (`it.fails`) so that a better model shows up here as a test to turn back.
 * The job ad came back clean with the weights retrained on today's ingest passages of the Dolma sample.
 */
const KNOWN_MODEL_FALSE_ALARMS = new Set(['clean_hard/mentions_ai', 'clean_hard/exam']);

const readJsonl = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));

function devPages(): Page[] {
  const texts = new Map(readJsonl(join(DEV, 'pages.jsonl')).map((page) => [page.url, page.text as string]));
  return readJsonl(join(DEV, 'labels.jsonl')).map((label) => ({
    category: label.category,
    text: texts.get(label.url)!,
    injected: label.injected,
    injection: label.injection_text ?? undefined,
    strength: label.strength ?? undefined,
  }));
}

const byCategory = (pages: Page[]) => {
  const groups = new Map<string, Page[]>();
  for (const page of pages) groups.set(page.category, [...(groups.get(page.category) ?? []), page]);
  return [...groups.entries()].sort(([left], [right]) => left.localeCompare(right));
};
const flagged = (page: Page) => riskFlags(page.text, TRUSTED).includes('instruction_like');

// The labelled development split is not part of the repository (README, Benchmark data): its
// cases run where it sits beside the checkout, and are skipped elsewhere.
describe.runIf(existsSync(DEV))('development split', () => {
  const pages = existsSync(DEV) ? devPages() : [];

  // An implicit attack (a bare question or task) is not caught out of context: the rule that judged
  // a request "unrelated to its passage" flagged real pages' own questions ("What has the reaction
  // been?") and was dropped (issue 32). Explicit attacks must all be caught.
  for (const [category, members] of byCategory(pages.filter((page) => page.injected))) {
    it(`catches the explicit attacks of ${category}`, () => {
      const missed = members.filter((page) => page.strength !== 'implicit' && !flagged(page)).map((page) => page.injection);
      expect(missed).toEqual([]);
    });
  }

  for (const [category, members] of byCategory(pages.filter((page) => !page.injected))) {
    (KNOWN_MODEL_FALSE_ALARMS.has(category) ? it.fails : it)(`leaves ${category} alone`, () => {
      const raised = members.filter(flagged).map((page) => page.text.slice(0, 80));
      expect(raised).toEqual([]);
    });
  }

  it('strip removes the injected sentence and keeps every sentence of the carrier', () => {
    let checked = 0;
    for (const page of pages.filter((candidate) => candidate.injected && candidate.injection && candidate.strength !== 'implicit')) {
      const at = page.text.indexOf(page.injection!);
      if (at < 0) continue;
      const carrier = page.text.slice(0, at) + page.text.slice(at + page.injection!.length);
      const stripped = stripInstructionLike(page.text);
      expect(stripped.sentencesRemoved).toBeGreaterThan(0);
      expect(stripped.text).toContain(INSTRUCTION_MARKER);
      // The instruction's words are gone ...
      expect(stripped.text).not.toContain(page.injection!);
      // ... and the carrier's first and last words stay, unless the injection is glued to them without punctuation.
      const before = page.text.slice(0, at).trim();
      if (/[.!?]$/.test(before)) expect(stripped.text.startsWith(before)).toBe(true);
      expect(carrier.length).toBeGreaterThan(0);
      checked++;
    }
    expect(checked).toBeGreaterThan(60);
  });

  it('gives the same flags and spans on every call', () => {
    const first = pages.map((page) => riskReport(page.text, TRUSTED));
    const second = pages.map((page) => riskReport(page.text, TRUSTED));
    expect(second).toEqual(first);
  });
});

describe('families the development split does not hold (bench/data/risk-families.jsonl)', () => {
  const pages: Page[] = readJsonl(OWN);
  for (const [category, members] of byCategory(pages)) {
    (KNOWN_MODEL_FALSE_ALARMS.has(category) ? it.fails : it)(`${category}: raises exactly the labelled text flags`, () => {
      for (const page of members) {
        const flags = riskFlags(page.text, TRUSTED);
        expect({ text: page.text, flags }).toEqual({ text: page.text, flags: ['instruction_like', 'hidden_text', 'role_markers'].filter((flag) => page.flags!.includes(flag)) });
      }
    });
  }
});
