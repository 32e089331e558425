/**
 * Retrieval metrics as trec_eval / pytrec_eval (what BEIR reports) compute them:
 * nDCG@k with linear graded gains (gain = grade) and the log2(rank + 1) discount, the ideal
 * ranking built from every judgement of the query; recall@k over passages judged at or above
 * a grade. A ranking may repeat an id (two shards, a bug): only its first position counts.
 */

/** Judgements of one query: corpus id -> grade (0 = judged not relevant). */
export type Judgements = ReadonlyMap<string, number>;

function firstOccurrences(ranking: readonly string[], k: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of ranking) {
    if (out.length >= k) break;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return out;
}

/** Discounted cumulative gain of grades in rank order (rank 1 is divided by log2(2) = 1). */
export function dcg(grades: readonly number[]): number {
  let sum = 0;
  for (let index = 0; index < grades.length; index++) sum += grades[index] / Math.log2(index + 2);
  return sum;
}

/** nDCG@k; 0 when the query has no judgement above grade 0 (no ideal gain). */
export function ndcgAt(ranking: readonly string[], judgements: Judgements, k = 10): number {
  const gains = firstOccurrences(ranking, k).map((id) => Math.max(0, judgements.get(id) ?? 0));
  const ideal = [...judgements.values()]
    .filter((grade) => grade > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  const idealGain = dcg(ideal);
  return idealGain === 0 ? 0 : dcg(gains) / idealGain;
}

/** recall@k: share of the passages judged >= minGrade found in the top k; 0 when there are none. */
export function recallAt(ranking: readonly string[], judgements: Judgements, k = 100, minGrade = 1): number {
  let relevant = 0;
  for (const grade of judgements.values()) if (grade >= minGrade) relevant++;
  if (relevant === 0) return 0;
  let found = 0;
  for (const id of firstOccurrences(ranking, k)) if ((judgements.get(id) ?? -1) >= minGrade) found++;
  return found / relevant;
}

/** Whether a query counts towards a mean: it has at least one judgement at or above minGrade. */
export function hasRelevant(judgements: Judgements | undefined, minGrade = 1): boolean {
  if (!judgements) return false;
  for (const grade of judgements.values()) if (grade >= minGrade) return true;
  return false;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}
