import { describe, expect, it } from 'vitest';
import { MAX_PASSAGE_WORDS, MIN_PASSAGE_WORDS, splitIntoPassages } from '../src/split.js';
import { countWords } from '../src/words.js';
import { buildPassages } from '../src/passage-builder.js';
import { pageIdFor } from '../src/page-id.js';
import { parseRecordLine, type ContentRecord } from '../src/record.js';

function sentence(words: number, marker: string): string {
  const parts = [marker];
  for (let index = 1; index < words; index++) parts.push(`x${index}`);
  return `${parts.join(' ')}.`;
}

function pageRecord(fields: Record<string, unknown>): ContentRecord {
  const parsed = parseRecordLine(JSON.stringify({ url: 'https://example.org/a', title: 'A', fetched_at: 1_700_000_000, ...fields }));
  if (parsed.kind !== 'content') throw new Error(`expected a content record, got ${JSON.stringify(parsed)}`);
  return parsed;
}

describe('splitIntoPassages', () => {
  it('makes one passage of each paragraph of 8..200 words', () => {
    const first = 'The first paragraph has exactly ten words in it, friends.';
    const second = 'The second paragraph is also long enough to stand alone here.';
    expect(splitIntoPassages(`${first}\n\n${second}`)).toEqual([first, second]);
  });

  it('splits on blank lines that contain spaces', () => {
    const passages = splitIntoPassages('one two three four five six seven eight\n  \t\nnine ten eleven twelve thirteen fourteen fifteen sixteen');
    expect(passages).toHaveLength(2);
  });

  it('merges a short paragraph into the next one', () => {
    const body = 'A paragraph that is long enough to be a passage of its own.';
    const passages = splitIntoPassages(`Heading\n\n${body}`);
    expect(passages).toEqual([`Heading\n\n${body}`]);
  });

  it('merges a run of short paragraphs into the next one', () => {
    const body = 'A paragraph that is long enough to be a passage of its own.';
    expect(splitIntoPassages(`Title\n\nBy someone\n\n${body}`)).toEqual([`Title\n\nBy someone\n\n${body}`]);
  });

  it('merges a trailing short paragraph into the previous one', () => {
    const body = 'A paragraph that is long enough to be a passage of its own.';
    expect(splitIntoPassages(`${body}\n\nThe end.`)).toEqual([`${body}\n\nThe end.`]);
  });

  it('keeps a page that is one short paragraph as one passage', () => {
    expect(splitIntoPassages('Just three words')).toEqual(['Just three words']);
  });

  it('cuts a long paragraph at sentence ends into chunks of at most 200 words', () => {
    const sentences = Array.from({ length: 12 }, (_, index) => sentence(40, `s${index}`));
    const passages = splitIntoPassages(sentences.join(' '));
    expect(passages.length).toBeGreaterThanOrEqual(3);
    for (const passage of passages) {
      expect(countWords(passage)).toBeLessThanOrEqual(MAX_PASSAGE_WORDS);
      expect(countWords(passage)).toBeGreaterThanOrEqual(MIN_PASSAGE_WORDS);
      // Each chunk starts a sentence and ends one.
      expect(passage).toMatch(/^s\d+ /);
      expect(passage.endsWith('.')).toBe(true);
    }
    expect(passages.reduce((sum, passage) => sum + countWords(passage), 0)).toBe(480);
  });

  it('cuts a sentence longer than a passage between words', () => {
    const passages = splitIntoPassages(sentence(450, 'long'));
    expect(passages).toHaveLength(3);
    for (const passage of passages) expect(countWords(passage)).toBeLessThanOrEqual(MAX_PASSAGE_WORDS);
    expect(passages.reduce((sum, passage) => sum + countWords(passage), 0)).toBe(450);
  });
});

describe('passage ids', () => {
  const text = [
    'The first paragraph has exactly ten words in it, friends.',
    'The second paragraph is also long enough to stand alone here.',
    'And a third paragraph closes the page with enough words too.',
  ].join('\n\n');

  it('numbers the passages of a page from 0 under its page id', () => {
    const record = pageRecord({ text });
    const pageId = pageIdFor(record.url, record.text);
    expect(pageId).toMatch(/^p[0-9a-f]{16}$/);
    const passages = buildPassages(record, pageId, 'en');
    expect(passages.map((passage) => passage.id)).toEqual([`${pageId}:0`, `${pageId}:1`, `${pageId}:2`]);
    expect(passages.map((passage) => passage.passageNo)).toEqual([0, 1, 2]);
  });

  it('gives the same record the same ids and changed text new ones', () => {
    expect(pageIdFor('https://example.org/a', text)).toBe(pageIdFor('https://example.org/a', text));
    expect(pageIdFor('https://example.org/a', `${text} Updated.`)).not.toBe(pageIdFor('https://example.org/a', text));
    expect(pageIdFor('https://example.org/b', text)).not.toBe(pageIdFor('https://example.org/a', text));
  });

  it('keeps a passage record whole under its own id', () => {
    const record = pageRecord({ id: 'pabc:3', text: `Heading\n\n${text}` });
    const passages = buildPassages(record, 'pabc', 'en');
    expect(passages).toHaveLength(1);
    expect(passages[0].id).toBe('pabc:3');
    expect(passages[0].passageNo).toBe(3);
  });
});
