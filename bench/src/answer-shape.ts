/**
 * What each server answers for the same queries, for the legend of the peers table: results and
 * total per answer, body size, and how many of the evidence server's top hits another server
 * also returns.
 */
export interface AnswerShape {
  /** Mean results per answer. */
  results: number;
  /** Mean `total` per answer. */
  total: number;
  /** Mean body size in bytes. */
  bytes: number;
  /** The hit ids of each answer, in query order. */
  ids: string[][];
}

/** GET each path once (sequentially, outside any measurement) and describe the answers. */
export async function fetchAnswerShape(url: string, paths: string[], headers: Record<string, string>): Promise<AnswerShape> {
  let results = 0;
  let total = 0;
  let bytes = 0;
  const ids: string[][] = [];
  for (const path of paths) {
    const response = await fetch(`${url}${path}`, { headers });
    const text = await response.text();
    if (!response.ok) throw new Error(`${url}${path}: ${response.status} ${text}`);
    const body = JSON.parse(text) as { results?: Array<{ id: string }>; total?: number };
    results += body.results?.length ?? 0;
    total += body.total ?? 0;
    bytes += Buffer.byteLength(text);
    ids.push((body.results ?? []).map((hit) => hit.id));
  }
  const count = Math.max(1, paths.length);
  return { results: results / count, total: total / count, bytes: bytes / count, ids };
}

/**
 * The mean, over queries where `reference` returned hits, of the share of those hits that
 * `other` returned too (in any position); null when no query had reference hits.
 */
export function meanOverlap(reference: string[][], other: string[][]): number | null {
  let shared = 0;
  let counted = 0;
  reference.forEach((ids, index) => {
    if (ids.length === 0) return;
    const returned = new Set(other[index] ?? []);
    shared += ids.filter((id) => returned.has(id)).length / ids.length;
    counted++;
  });
  return counted === 0 ? null : shared / counted;
}
