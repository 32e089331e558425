/**
 * SciFact through the real ground path, for `npm run bench:claims` and `npm run train:claims`:
 * the abstracts (`pages.jsonl`) ingested into a temporary index (`ingestFiles`, what `npm run
 * ingest` runs; hashing vectors, so keyword and hybrid answer at once), a real server started on
 * it as a child process, and for each claim `GET /ground?objective=CLAIM&claim=CLAIM&require_role=`
 * as a client calls it. The data: SciFact's abstracts and train claims, SCIFACT_DATA (default ../shared/data/scifact beside the checkout).
 *
 * The claims are split by id: even ids are the tuning half (the model is trained and its
 * thresholds chosen on it), odd ids the held-out half (reported, never tuned on).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embedderForIndex, embedderSetting } from '@evidence/embedders';
import { ingestFiles } from '@evidence/ingest';
import type { GroundResponse } from '@evidence/schemas';
import { createBenchKey, startServerProcess } from '../load.js';

export const SCIFACT_DIR = process.env.SCIFACT_DATA || join(process.cwd(), '..', 'shared', 'data', 'scifact');

export type GoldLabel = 'SUPPORT' | 'CONTRADICT';

export interface ScifactClaim {
  id: number;
  claim: string;
  gold: Array<{ url: string; label: GoldLabel }>;
  cited_urls: string[];
}

export type Half = 'tuning' | 'held-out';

export function halfOf(claim: Pick<ScifactClaim, 'id'>): Half {
  return claim.id % 2 === 0 ? 'tuning' : 'held-out';
}

/** The train claims, or exit 2 naming what is missing (nothing is measured or trained without them). */
export function loadClaims(dir = SCIFACT_DIR): ScifactClaim[] {
  const file = join(dir, 'claims-train.jsonl');
  if (!existsSync(file) || !existsSync(join(dir, 'pages.jsonl'))) {
    console.error(`no SciFact data at ${dir} (claims-train.jsonl and pages.jsonl): set SCIFACT_DATA to the folder holding them`);
    process.exit(2);
  }
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ScifactClaim)
    .sort((left, right) => left.id - right.id);
}

/** One claim's ground answer, as much of it as the benches read. */
export interface GroundedClaim {
  claim: ScifactClaim;
  items: Array<{ url: string; passage: string; relation: string; confidence: number; sentences: number }>;
  knownGaps: string[];
  nextActions: string[];
  experimental: string[];
  elapsedMs: number;
}

export interface GroundOptions {
  mode: 'keyword' | 'hybrid' | 'semantic';
  log: (line: string) => void;
}

/** Ingest SciFact's abstracts into a temporary index, serve it, and ground each claim over REST. */
export async function groundClaims(claims: ScifactClaim[], options: GroundOptions): Promise<{ grounded: GroundedClaim[]; ingestSeconds: number; passages: number }> {
  const pages = join(SCIFACT_DIR, 'pages.jsonl');
  if (!existsSync(pages)) throw new Error(`no SciFact pages at ${pages}: set SCIFACT_DATA`);
  const work = mkdtempSync(join(tmpdir(), 'bench-claims-'));
  const dataDir = join(work, 'data');
  try {
    options.log(`ingesting ${pages} into a temporary index (hashing vectors)`);
    const summary = await ingestFiles([pages], { dataDir, shards: 1, embedder: embedderForIndex(embedderSetting('hashing'), null), log: () => {} });
    options.log(`  ${summary.passagesAdded} passages in ${summary.elapsedSeconds.toFixed(1)} s`);
    const key = createBenchKey(dataDir);
    const server = await startServerProcess('packages/server/dist/main.js', { DATA_DIR: dataDir, LOG_LEVEL: 'info' }, 'server');
    try {
      const grounded: GroundedClaim[] = [];
      for (const claim of claims) {
        const query = new URLSearchParams({ objective: claim.claim, claim: claim.claim, require_role: '', mode: options.mode });
        const started = performance.now();
        const response = await fetch(`${server.url}/ground?${query}`, { headers: { 'x-api-key': key } });
        const text = await response.text();
        if (!response.ok) throw new Error(`ground for claim ${claim.id}: ${response.status} ${text}`);
        const elapsedMs = performance.now() - started;
        const body = JSON.parse(text) as GroundResponse;
        grounded.push({
          claim,
          items: body.evidence.map((item) => ({
            url: item.hit.url,
            passage: item.hit.snippet,
            relation: item.claim_relation ?? 'unresolved',
            confidence: item.relation_confidence ?? 0,
            sentences: (item as { relation_sentences?: unknown[] }).relation_sentences?.length ?? 0,
          })),
          knownGaps: body.coverage.known_gaps,
          nextActions: body.next_actions.map((action) => action.action),
          experimental: body.provenance.experimental,
          elapsedMs,
        });
        if (grounded.length % 100 === 0) options.log(`  grounded ${grounded.length} of ${claims.length} claims`);
      }
      return { grounded, ingestSeconds: summary.elapsedSeconds, passages: summary.passagesAdded };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** A gold abstract that came back: the first (best-ranked) item from its URL. */
export interface ReturnedGold {
  claim: ScifactClaim;
  label: GoldLabel;
  passage: string;
  relation: string;
  confidence: number;
}

export function returnedGold(grounded: GroundedClaim[]): ReturnedGold[] {
  const returned: ReturnedGold[] = [];
  for (const answer of grounded) {
    for (const gold of answer.claim.gold) {
      const item = answer.items.find((candidate) => candidate.url === gold.url);
      if (item) returned.push({ claim: answer.claim, label: gold.label, passage: item.passage, relation: item.relation, confidence: item.confidence });
    }
  }
  return returned;
}
