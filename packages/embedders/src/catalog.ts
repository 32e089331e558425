/**
 * The embedders `EMBEDDER` can name: where each one's vectors are made and how many dimensions
 * they have. An index records the embedder that built it (`index.json`), since vectors of
 * different embedders are not comparable.
 */

export interface EmbedderSpec {
  name: string;
  dimensions: number;
  /** `engine`: the engine embeds passages at ingest and query texts itself. `model`: the service runs the model (passages in the background after ingest, query texts per call). */
  runs: 'engine' | 'model';
  description: string;
  /**
   * How its cosines count in rankings (see the engine's VectorScoring): absent for the hashing
   * embedder, whose values are the engine's defaults.
   */
  scoring?: { minSimilarity: number; keywordWeight: number; cosineWeight: number; cosineFloor: number };
}

export const EMBEDDERS: readonly EmbedderSpec[] = [
  {
    name: 'bge-small-en-v1.5-q',
    dimensions: 384,
    runs: 'model',
    description: 'BAAI bge-small-en-v1.5 (MIT), int8 ONNX from Maven Central, run by ONNX Runtime on CPU',
    // `npm run bench:fusion` (bench/results/2026-11-23-fusion.md): chosen on msmarco, validated on
    // dbpedia. Its cosines of random passages stay under about 0.50 (p90) while judged relevant
    // ones start near 0.59 (p10): a neighbour under 0.55 is no match, and hybrid counts only the
    // band above 0.6, weighted 10 against BM25 / S.
    scoring: { minSimilarity: 0.55, keywordWeight: 1, cosineWeight: 10, cosineFloor: 0.6 },
  },
  {
    name: 'potion-base-2M',
    dimensions: 64,
    runs: 'model',
    description: 'Model2Vec potion-base-2M (MIT), a static token-embedding table from crates.io: the mean of a text\'s token rows, thousands of passages/s on one core',
    // `FUSION_EMBEDDER=potion-base-2M npm run bench:fusion` (packages/embedders/MEASURED.md): chosen
    // on msmarco, validated on dbpedia. Random passages' cosines stay under about 0.29 (p90), judged
    // relevant ones have a median near 0.55: a neighbour under 0.3 is no match, and hybrid counts
    // only the band above 0.4, weighted 0.3 against BM25 / S (its cosines are a weaker signal than bge's).
    scoring: { minSimilarity: 0.3, keywordWeight: 1, cosineWeight: 0.3, cosineFloor: 0.4 },
  },
  {
    name: 'hashing',
    dimensions: 128,
    runs: 'engine',
    description: 'model-free: signed feature hashing of stemmed terms and character 4-grams (a lexical signal, cheap at any scale)',
  },
];

/** The embedder of a new index when EMBEDDER is unset. */
export const DEFAULT_EMBEDDER = 'bge-small-en-v1.5-q';

/** EMBEDDER=none: a node that serves without vectors (keyword only). */
export const NO_EMBEDDER = 'none';

export function embedderSpec(name: string): EmbedderSpec | undefined {
  return EMBEDDERS.find((spec) => spec.name === name);
}

/**
 * EMBEDDER as set: an embedder's name, `none`, or undefined when unset or empty (the index's
 * own embedder, or DEFAULT_EMBEDDER for a new index). Anything else is an error naming the choices.
 */
export function embedderSetting(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = raw.trim();
  if (value === NO_EMBEDDER || embedderSpec(value)) return value;
  const choices = [...EMBEDDERS.map((spec) => spec.name), NO_EMBEDDER].join(', ');
  throw new Error(`invalid EMBEDDER: expected one of ${choices}, got "${raw}"`);
}

/**
 * The embedder of an index: the one its manifest records (`hashing` when it records none, as
 * manifests written before embedders were recorded); for a new index (`recorded` null) the one
 * EMBEDDER names, DEFAULT_EMBEDDER when unset or `none`. Naming another embedder than an existing
 * index's is an error: its vectors could not be compared with the index's. Server, ingest and
 * `npm start` all resolve EMBEDDER here.
 */
export function embedderForIndex(setting: string | undefined, recorded: { embedder?: string; dimensions: number } | null): EmbedderSpec {
  const asked = setting === undefined || setting === NO_EMBEDDER ? undefined : setting;
  if (!recorded) return embedderSpec(asked ?? DEFAULT_EMBEDDER)!;
  const built = recorded.embedder ?? 'hashing';
  if (asked !== undefined && asked !== built) {
    throw new Error(
      `EMBEDDER=${asked}, but the index in DATA_DIR was built with ${built}: its vectors cannot be compared with ${asked}'s. Use EMBEDDER=${built} (or leave it unset, or none to serve without vectors), or a new DATA_DIR`,
    );
  }
  const spec = embedderSpec(built);
  if (!spec) throw new Error(`the index in DATA_DIR was built with embedder ${built}, which this version does not have`);
  if (spec.dimensions !== recorded.dimensions) {
    throw new Error(`the index in DATA_DIR records ${recorded.dimensions} dimensions for ${built}, which makes ${spec.dimensions}: the manifest is damaged`);
  }
  return spec;
}
