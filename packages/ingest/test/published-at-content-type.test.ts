/**
 * The page signals ingest derives (src/signals/): what a user sees on real pages. The labelled
 * pages and texts are read from ../shared/data/signals (the development halves: htmldate's
 * evaluation pages and the genre-labelled texts); the tests that need them are skipped without it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { decodeHtml, extractHtmlPage } from '../src/html-page.js';
import { deriveContentType } from '../src/signals/content-type.js';
import { parseTextDate } from '../src/signals/date-text.js';
import { derivePublishedAt } from '../src/signals/published-at.js';
import { PACKAGE_DIRECTORY } from './helpers.js';

const SIGNALS = join(PACKAGE_DIRECTORY, '..', '..', '..', 'shared', 'data', 'signals');
const DATED_PAGES = join(SIGNALS, 'published_at', 'records.jsonl');
const GENRE_TEXTS = join(SIGNALS, 'content_type', 'records.jsonl');

const FETCHED_AT = Date.parse('2024-06-01T00:00:00Z') / 1000;
const day = (seconds: number | undefined): string | undefined => (seconds === undefined ? undefined : new Date(seconds * 1000).toISOString().slice(0, 10));
const page = (head: string, body: string): string => `<!DOCTYPE html><html lang="en"><head><title>Harbour works</title>${head}</head><body>${body}</body></html>`;
const STORY = '<p>The harbour authority finished dredging the inner basin, so that larger ferries can berth at the old quay again this summer.</p>';

describe('published_at from the page', () => {
  it('reads JSON-LD that is not valid JSON, as real pages carry it', () => {
    const html = page('<script type="application/ld+json">{"@type":"NewsArticle",\n"headline":"Harbour\nworks",\n"datePublished":"2021-03-03T09:15:00+01:00",}</script>', `<article>${STORY}</article>`);
    const extracted = extractHtmlPage(html, 'https://port.example.com/harbour', FETCHED_AT);
    expect(extracted.publishedAt).toBe(Date.parse('2021-03-03T09:15:00+01:00') / 1000);
    expect(extracted.publishedAtSignal).toMatchObject({ source: 'json_ld', day: '2021-03-03' });
  });

  it('reads bylines written for readers, in English and German, and a date in the URL', () => {
    const english = extractHtmlPage(page('', `<article><div class="byline">By Ann Lee · Published March 3, 2021</div>${STORY}</article>`), 'https://port.example.com/harbour', FETCHED_AT);
    expect(day(english.publishedAt)).toBe('2021-03-03');
    const german = extractHtmlPage(page('', `<article><p class="meta">Veröffentlicht am 03.04.2021</p>${STORY}</article>`), 'https://hafen.example.de/bagger', FETCHED_AT);
    expect(day(german.publishedAt)).toBe('2021-04-03');
    const fromUrl = extractHtmlPage(page('', `<article>${STORY}</article>`), 'https://port.example.com/2020/11/05/harbour-works/', FETCHED_AT);
    expect(fromUrl.publishedAtSignal).toMatchObject({ source: 'url', day: '2020-11-05' });
    // Digits that run on are an article id, not a day.
    expect(extractHtmlPage(page('', `<article>${STORY}</article>`), 'https://port.example.com/2020/11/123456-harbour', FETCHED_AT).publishedAt).toBeUndefined();
  });

  it('never takes a date after the crawl, and invents none', () => {
    const future = extractHtmlPage(page('<meta property="article:published_time" content="2031-01-01T00:00:00Z">', `<article><time datetime="2022-02-02">2 Feb 2022</time>${STORY}</article>`), 'https://port.example.com/a', FETCHED_AT);
    expect(day(future.publishedAt)).toBe('2022-02-02');
    const none = extractHtmlPage(page('', `<article>${STORY}</article>`), 'https://port.example.com/a', FETCHED_AT);
    expect(none.publishedAt).toBeUndefined();
    expect(none.publishedAtSignal.confidence).toBe(0);
  });

  it('parses written dates with care: month names in several languages, slashed numbers by the page language', () => {
    expect(parseTextDate('March 3, 2021')).toMatchObject({ year: 2021, month: 3, day: 3 });
    expect(parseTextDate('3 March 2021')).toMatchObject({ year: 2021, month: 3, day: 3 });
    expect(parseTextDate('3. März 2021')).toMatchObject({ year: 2021, month: 3, day: 3 });
    expect(parseTextDate('le 3 mars 2021')).toMatchObject({ year: 2021, month: 3, day: 3 });
    expect(parseTextDate('03/04/2021', true)).toMatchObject({ month: 3, day: 4 });
    expect(parseTextDate('03/04/2021', false)).toMatchObject({ month: 4, day: 3 });
    expect(parseTextDate('25/04/2021', true)).toMatchObject({ month: 4, day: 25 });
    expect(parseTextDate('31.02.2021')).toBeUndefined();
  });

  it.skipIf(!existsSync(DATED_PAGES))('gives the right day on real pages of htmldate\'s evaluation set', () => {
    const records = readFileSync(DATED_PAGES, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { id: string; url: string; html_file: string | null; date: string | null });
    // Every tenth page with HTML (43 pages), by id order: a fixed sample, not chosen by outcome.
    const sample = records.filter((record) => record.html_file !== null).sort((a, b) => (a.id < b.id ? -1 : 1)).filter((_, index) => index % 10 === 0);
    let right = 0;
    const now = Math.floor(Date.now() / 1000);
    for (const record of sample) {
      const { html } = decodeHtml(gunzipSync(readFileSync(join(SIGNALS, 'published_at', record.html_file!))), undefined);
      const signal = derivePublishedAt(parseHTML(html).document as never, record.url, now);
      if (signal.value !== undefined) expect(signal.value).toBeLessThanOrEqual(now + 86_400);
      const onDay = signal.value === undefined ? record.date === null : [-12, -6, 0, 6, 12, 14].some((hours) => day(signal.value! + hours * 3600) === record.date);
      if (onDay) right++;
    }
    expect(sample.length).toBeGreaterThan(40);
    expect(right / sample.length).toBeGreaterThanOrEqual(0.85);
  });
});

describe('content_type from the page', () => {
  it('takes the type the page declares, else its URL, else its text', () => {
    const declared = extractHtmlPage(page('<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage"},{"@type":["QAPage"]}]}</script>', `<main>${STORY}</main>`), 'https://port.example.com/a', FETCHED_AT);
    expect(declared.pageTypes).toEqual(['WebPage', 'QAPage']);
    expect(deriveContentType({ url: 'https://port.example.com/a', title: '', text: STORY, pageTypes: declared.pageTypes })).toMatchObject({ value: 'qa', source: 'structure' });
    expect(deriveContentType({ url: 'https://port.example.com/forum/viewtopic.php?t=12', title: '', text: STORY })).toMatchObject({ value: 'forum', source: 'url' });
    const fromText = deriveContentType({ url: 'https://port.example.com/a', title: 'Harbour works', text: STORY });
    expect(fromText.source).toBe('text');
    expect(fromText.confidence).toBeGreaterThan(0);
    expect(fromText.confidence).toBeLessThanOrEqual(1);
  });

  it.skipIf(!existsSync(GENRE_TEXTS))('tells the genres of real web texts apart (texts the model was not trained on)', () => {
    const texts = readFileSync(GENRE_TEXTS, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { id: string; text: string; content_type: string });
    // The model was trained on texts whose id's SHA-256 has an even second byte; these are the others.
    const unseen = texts.filter((text) => createHash('sha256').update(text.id).digest()[1] % 2 === 1);
    const labels = [...new Set(unseen.map((text) => text.content_type))];
    const predicted = unseen.map((text) => deriveContentType({ url: 'https://example.com/', title: '', text: text.text }).value);
    const f1 = labels.map((label) => {
      let tp = 0;
      let fp = 0;
      let fn = 0;
      unseen.forEach((text, index) => {
        if (predicted[index] === label && text.content_type === label) tp++;
        else if (predicted[index] === label) fp++;
        else if (text.content_type === label) fn++;
      });
      return (2 * tp) / Math.max(1, 2 * tp + fp + fn);
    });
    expect(labels).toHaveLength(9);
    expect(f1.reduce((sum, value) => sum + value, 0) / labels.length).toBeGreaterThanOrEqual(0.5);
  });
});
