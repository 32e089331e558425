/**
 * Page and passage identity. A page id hashes the URL with the text, so the same record
 * ingested again gets the same ids (the engine skips them) and a re-crawl with new content
 * gets new ones (which is how a re-crawl is recognised).
 */
import { createHash } from 'node:crypto';

export interface PassageIdParts {
  /** `page:no` */
  id: string;
  pageId: string;
  passageNo: number;
}

/** The engine stores passage numbers as u32. */
const LARGEST_PASSAGE_NO = 0xffff_ffff;

/** `p` + the first 16 hex digits of sha256(url + "\n" + text). */
export function pageIdFor(url: string, text: string): string {
  const digest = createHash('sha256').update(url).update('\n').update(text).digest('hex');
  return `p${digest.slice(0, 16)}`;
}

export function passageIdFor(pageId: string, passageNo: number): string {
  return `${pageId}:${passageNo}`;
}

/** Split `page:no`; undefined when the id does not have that form. */
export function parsePassageId(id: string): PassageIdParts | undefined {
  const colon = id.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const pageId = id.slice(0, colon);
  const number = id.slice(colon + 1);
  if (!/^\d{1,10}$/.test(number) || /\s/.test(pageId)) return undefined;
  const passageNo = Number(number);
  if (passageNo > LARGEST_PASSAGE_NO) return undefined;
  // A leading zero would give two spellings of one passage.
  if (String(passageNo) !== number) return undefined;
  return { id, pageId, passageNo };
}
