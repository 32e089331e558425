/**
 * Turn a validated record into engine passages: split a page (or take a passage record as is)
 * and fill in every derived field. Page-level work (URL fields, owner, role, graph signals,
 * language) happens once per record; per passage only the word count, and from the story
 * clustering the story id and origin type.
 */
import type { OriginType, Passage } from '@evidence/native';
import { fingerprintTexts } from './fingerprint.js';
import { detectLanguage } from './language.js';
import { OwnersTable } from './owners.js';
import { describePage, type PageContext } from './page-provenance.js';
import { passageIdFor } from './page-id.js';
import type { ContentRecord } from './record.js';
import { splitIntoPassages } from './split.js';
import { StoryClusters } from './story-clusters.js';
import { countWords } from './words.js';

/**
 * The passage texts of a record with their numbers: the split page, or the one passage record. A
 * page with no text (a page known by its URL and title only) is one passage: its title, else its
 * URL, so that it is in the index and why_not finds it; its signals are still derived from the
 * record as given (empty text), never from this stand-in.
 */
export function numberedTexts(record: ContentRecord): Array<[number, string]> {
  if (record.passage !== undefined) return [[record.passage.passageNo, record.text.trim()]];
  if (record.text.trim() === '') return [[0, record.title.trim() || record.url]];
  return splitIntoPassages(record.text).map((text, passageNo): [number, string] => [passageNo, text]);
}

/** What clustering decided for one passage. */
export interface PassageStory {
  storyId: string;
  originType: OriginType;
}

/**
 * One engine passage of `record`; independent_sources is stamped when it is sent to its shard.
 * `wordCount` is the fingerprint's count when there is one (the same as `countWords`).
 */
export function makePassage(
  record: ContentRecord,
  pageId: string,
  lang: string,
  page: PageContext,
  passageNo: number,
  text: string,
  story: PassageStory,
  wordCount = countWords(text),
): Passage {
  const passage: Passage = {
    id: passageIdFor(pageId, passageNo),
    pageId,
    passageNo,
    url: record.url,
    host: page.hostFields.host,
    registrableDomain: page.hostFields.registrableDomain,
    owner: page.owner,
    title: record.title,
    text,
    vertical: page.signals.vertical.value,
    lang,
    hostRank: page.signals.hostRank.value,
    quality: page.signals.quality.value,
    fetchedAt: record.fetchedAt,
    publishedAt: record.publishedAt,
    source: record.source,
    storyId: story.storyId,
    contentType: page.contentType,
    authority: page.signals.authority.value,
    safety: page.signals.safety.value,
    tld: page.hostFields.tld,
    topics: page.signals.topics,
    wordCount,
    links: record.links,
    originType: story.originType,
    sourceRole: page.role.role,
    roleConfidence: page.role.confidence,
    inDegree: page.graph?.inDegree ?? 0,
    centrality: page.graph?.centrality ?? 0,
    embedding: record.embedding,
  };
  if (page.graph !== undefined) passage.communityId = page.graph.communityId;
  return passage;
}

/**
 * Passages of `record` under `pageId`, derived on their own: the owners table is the built-in
 * one, there is no link graph, and each passage is clustered only with the others of this call.
 * An ingest run derives passages with its own state instead.
 */
export function buildPassages(record: ContentRecord, pageId: string, lang: string): Passage[] {
  const page = describePage(record, new OwnersTable(), new Map());
  const texts = numberedTexts(record);
  const fingerprints = fingerprintTexts(texts.map(([, text]) => text));
  const clusters = StoryClusters.inMemory();
  const time = record.publishedAt ?? record.fetchedAt;
  const stories = clusters.assignPage(fingerprints, { host: page.hostFields.host, owner: page.owner, time, pageKey: 0, pageOrigin: page.pageOrigin });
  return texts.map(([passageNo, text], index) => {
    const story = stories[index];
    const passage = makePassage(record, pageId, lang, page, passageNo, text, story, fingerprints.words[index]);
    passage.independentSources = clusters.independentSources(story.story);
    return passage;
  });
}

/** The language to store: the record's own, else detected from the page body. */
export function pageLanguage(record: ContentRecord): string {
  return record.lang ?? detectLanguage(record.text);
}
