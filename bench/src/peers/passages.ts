/**
 * The passages an index holds, rebuilt from the JSONL it was ingested from, for a peer engine
 * that has to hold the same corpus: every record parsed and split as ingest does
 * (parseRecordLine, numberedTexts: packages/ingest), and kept only when the index's admission
 * ledger still holds its page (ingest leaves out redundant copies, applies removals and
 * re-crawls, and a peer must not hold what the index dropped).
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { ledgerPath } from '@evidence/native';
import { AdmissionTable, deriveHostFields, deriveSafety, numberedTexts, pageIdFor, parseRecordLine, passageIdFor, replayLedger } from '@evidence/ingest';

export interface PeerPassage {
  id: string;
  url: string;
  title: string;
  text: string;
  safety: string;
}

export interface PeerCorpus {
  passages: PeerPassage[];
  /** Passages the JSONL splits into, before the ledger's verdicts. */
  split: number;
}

export async function loadIndexedPassages(jsonlPath: string, dataDir: string): Promise<PeerCorpus> {
  const admission = new AdmissionTable();
  await replayLedger(ledgerPath(dataDir), (event) => admission.apply(event));
  const passages: PeerPassage[] = [];
  // A page can occur more than once in the JSONL (a repeated crawl): it is indexed once.
  const seen = new Set<string>();
  let split = 0;
  const lines = createInterface({ input: createReadStream(jsonlPath), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const record = parseRecordLine(line);
    if (record.kind !== 'content') continue;
    const pageId = record.passage?.pageId ?? pageIdFor(record.url, record.text);
    const held = admission.passageSpan(record.url, pageId);
    // The safety the index holds: the record's own, else derived from the page as ingest does.
    const safety = deriveSafety({ host: deriveHostFields(record.hostname).host, path: new URL(record.url).pathname + new URL(record.url).search, title: record.title, text: record.text }, record.safety).value;
    for (const [passageNo, text] of numberedTexts(record)) {
      split++;
      const id = passageIdFor(pageId, passageNo);
      if (passageNo >= held || seen.has(id)) continue;
      seen.add(id);
      passages.push({ id, url: record.url, title: record.title, text, safety });
    }
  }
  return { passages, split };
}
