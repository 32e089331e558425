/**
 * Turn a validated record into engine passages: split a page (or take a passage record as is)
 * and fill in every derived field. Page-level work (URL fields, language) happens once per
 * record; per passage only the story id and word count are computed.
 */
import type { Passage } from '@evidence/native';
import { deriveHostFields, deriveOwner } from './derive.js';
import { detectLanguage } from './language.js';
import { passageIdFor } from './page-id.js';
import type { ContentRecord } from './record.js';
import { splitIntoPassages } from './split.js';
import { storyIdFor } from './story.js';
import { countWords } from './words.js';

/** Passages of `record` under `pageId`; `lang` is the record's or the detected page language. */
export function buildPassages(record: ContentRecord, pageId: string, lang: string): Passage[] {
  const hostFields = deriveHostFields(record.hostname);
  const owner = deriveOwner(record.owner, hostFields.registrableDomain);
  const numberedTexts: Array<[number, string]> =
    record.passage === undefined
      ? splitIntoPassages(record.text).map((text, passageNo) => [passageNo, text])
      : [[record.passage.passageNo, record.text.trim()]];
  const passages: Passage[] = [];
  for (const [passageNo, text] of numberedTexts) {
    passages.push({
      id: passageIdFor(pageId, passageNo),
      pageId,
      passageNo,
      url: record.url,
      host: hostFields.host,
      registrableDomain: hostFields.registrableDomain,
      owner,
      title: record.title,
      text,
      vertical: record.vertical,
      lang,
      hostRank: record.hostRank,
      quality: record.quality,
      fetchedAt: record.fetchedAt,
      publishedAt: record.publishedAt,
      source: record.source,
      storyId: storyIdFor(text),
      contentType: record.contentType,
      authority: record.authority,
      safety: record.safety,
      tld: hostFields.tld,
      topics: record.topics,
      wordCount: countWords(text),
      links: record.links,
      embedding: record.embedding,
    });
  }
  return passages;
}

/** The language to store: the record's own, else detected from the page body. */
export function pageLanguage(record: ContentRecord): string {
  return record.lang ?? detectLanguage(record.text);
}
