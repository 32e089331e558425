/** A BEIR-layout set: corpus.jsonl, queries.jsonl, qrels/test.tsv. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CorpusDoc {
  id: string;
  title: string;
  text: string;
}

export interface Query {
  id: string;
  text: string;
}

export interface IrSet {
  name: string;
  corpus: CorpusDoc[];
  queries: Query[];
  /** query id -> corpus id -> grade */
  qrels: Map<string, Map<string, number>>;
  /** qrels lines whose corpus id is not in the corpus (should be 0 for these subsets). */
  qrelsOutsideCorpus: number;
  /** Whether the qrels file began with the `query-id corpus-id score` header line. */
  qrelsHeader: boolean;
}

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      try {
        return JSON.parse(line) as T;
      } catch (error) {
        throw new Error(`${path}:${index + 1}: ${(error as Error).message}`);
      }
    });
}

export function loadSet(root: string, name: string): IrSet {
  const dir = join(root, name);
  const corpus = readJsonl<{ _id: string; title?: string; text?: string }>(join(dir, 'corpus.jsonl')).map((doc) => ({
    id: String(doc._id),
    title: doc.title ?? '',
    text: doc.text ?? '',
  }));
  const queries = readJsonl<{ _id: string; text: string }>(join(dir, 'queries.jsonl')).map((query) => ({
    id: String(query._id),
    text: query.text,
  }));
  const ids = new Set(corpus.map((doc) => doc.id));
  const qrels = new Map<string, Map<string, number>>();
  let qrelsOutsideCorpus = 0;
  let qrelsHeader = false;
  const lines = readFileSync(join(dir, 'qrels', 'test.tsv'), 'utf8').split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const [queryId, corpusId, score] = line.replace(/\r$/, '').split('\t');
    // The header is documented, but not every file has it: recognise it, do not assume it.
    if (index === 0 && !/^-?\d+$/.test(score ?? '')) {
      qrelsHeader = true;
      return;
    }
    if (corpusId === undefined || !/^-?\d+$/.test(score ?? '')) throw new Error(`${name} qrels line ${index + 1}: ${line}`);
    if (!ids.has(corpusId)) qrelsOutsideCorpus++;
    let judged = qrels.get(queryId);
    if (!judged) qrels.set(queryId, (judged = new Map()));
    judged.set(corpusId, Number(score));
  });
  return { name, corpus, queries, qrels, qrelsOutsideCorpus, qrelsHeader };
}
