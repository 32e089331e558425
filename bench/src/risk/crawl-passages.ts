/** The passages of a crawl file as ingest cuts them: WARC response -> main text (crawlItemOf) -> splitIntoPassages. */
import { crawlItemOf, detectInputFormat, readWarcItems, splitIntoPassages } from '@evidence/ingest';

export interface CrawlPassage {
  url: string;
  text: string;
}

export async function crawlPassages(file: string): Promise<CrawlPassage[]> {
  const format = await detectInputFormat(file);
  const passages: CrawlPassage[] = [];
  for await (const item of readWarcItems(file, format.compression)) {
    if (item.kind !== 'record') continue;
    const page = crawlItemOf(item);
    if (page.kind !== 'page') continue;
    const url = String(page.record.url);
    for (const text of splitIntoPassages(String(page.record.text))) passages.push({ url, text });
  }
  return passages;
}
