/** Run a query set against one engine and score the rankings. */
import type { IrSet, Query } from './dataset.js';
import { hasRelevant, mean, ndcgAt, recallAt, type Judgements } from './metrics.js';

export type Search = (query: string, limit: number) => Promise<string[]>;

export interface Run {
  /** query id -> corpus ids, best first */
  rankings: Map<string, string[]>;
  msPerQuery: number;
}

/** Queries run one after another (no overlap); the first `warmup` are run once untimed first. */
export async function runQueries(search: Search, queries: readonly Query[], cleaned: ReadonlyMap<string, string>, limit: number, warmup = 3): Promise<Run> {
  for (const query of queries.slice(0, warmup)) await search(cleaned.get(query.id)!, limit);
  const rankings = new Map<string, string[]>();
  let elapsed = 0;
  for (const query of queries) {
    const started = performance.now();
    const ranking = await search(cleaned.get(query.id)!, limit);
    elapsed += performance.now() - started;
    rankings.set(query.id, ranking);
  }
  return { rankings, msPerQuery: queries.length === 0 ? 0 : elapsed / queries.length };
}

export interface Scores {
  ndcg10: number;
  /** relevant = grade >= 1 */
  recall100: number;
  /** relevant = grade >= 2 (the TREC DL convention for recall), over queries that have such */
  recall100Grade2: number;
  judgedQueries: number;
  judgedQueriesGrade2: number;
}

/** The queries the metrics average over (a judgement >= 1), with their judgements. */
function* judgedQueries(set: IrSet): Generator<[string, Judgements]> {
  for (const query of set.queries) {
    const judgements = set.qrels.get(query.id);
    if (judgements && hasRelevant(judgements, 1)) yield [query.id, judgements];
  }
}

/** nDCG@10 of every judged query (the values `score` averages). */
export function ndcgByQuery(set: IrSet, run: Run): Map<string, number> {
  const byQuery = new Map<string, number>();
  for (const [id, judgements] of judgedQueries(set)) byQuery.set(id, ndcgAt(run.rankings.get(id) ?? [], judgements, 10));
  return byQuery;
}

export function score(set: IrSet, run: Run): Scores {
  const ndcg = [...ndcgByQuery(set, run).values()];
  const recall: number[] = [];
  const recall2: number[] = [];
  for (const [id, judgements] of judgedQueries(set)) {
    const ranking = run.rankings.get(id) ?? [];
    recall.push(recallAt(ranking, judgements, 100, 1));
    if (hasRelevant(judgements, 2)) recall2.push(recallAt(ranking, judgements, 100, 2));
  }
  return {
    ndcg10: mean(ndcg),
    recall100: mean(recall),
    recall100Grade2: mean(recall2),
    judgedQueries: ndcg.length,
    judgedQueriesGrade2: recall2.length,
  };
}

/** Whether two runs returned the same ids in the same order for every query. */
export function sameRankings(a: Run, b: Run): boolean {
  if (a.rankings.size !== b.rankings.size) return false;
  for (const [id, ranking] of a.rankings) {
    const other = b.rankings.get(id);
    if (!other || other.length !== ranking.length || other.some((value, index) => value !== ranking[index])) return false;
  }
  return true;
}
