/**
 * `npm start`: serve DATA_DIR. With no index there yet, first build the demo corpus index
 * (progress on stderr), then create a development key and print it once.
 */
import { closeSync, existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readManifest, shardDirectory, COMMIT_FILE } from '@evidence/native';
import { formatSummary, ingestWithProgress } from '@evidence/ingest';
import { embedderForIndex } from '@evidence/embedders';
import { AGGREGATORS, DEMO_OWNERS, RELEASE_WIRES, WIRES, writeDemoCorpus } from '@evidence/demo-corpus';
import { readConfig } from './config.js';
import { closeOnSignals, logListening, startServer } from './server.js';

function hasCommittedIndex(dataDir: string): boolean {
  const manifest = readManifest(dataDir);
  if (!manifest) return false;
  for (let shard = 0; shard < manifest.shards; shard++) {
    if (existsSync(join(shardDirectory(dataDir, shard), COMMIT_FILE))) return true;
  }
  return false;
}

async function buildDemoIndex(dataDir: string, shards: number, passages: number, embedder: { name: string; dimensions: number }): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const corpusPath = join(dataDir, 'demo-corpus.jsonl');
  console.error(`no index in ${dataDir}: building the demo corpus (${passages} passages)`);
  // The demo's owners table (media groups, wire services, release wires, aggregators): an
  // operator's own owners.json, when there is one, is kept.
  const ownersPath = join(dataDir, 'owners.json');
  if (!existsSync(ownersPath)) {
    const owners = {
      domains: DEMO_OWNERS,
      wire_services: WIRES.map((wire) => wire.name),
      release_wires: RELEASE_WIRES.map((host) => host.owner ?? host.name),
      aggregators: [...new Set(AGGREGATORS.map((host) => host.owner ?? host.name))],
    };
    writeFileSync(ownersPath, `${JSON.stringify(owners, null, 2)}\n`);
  }
  const fd = openSync(corpusPath, 'w');
  try {
    writeDemoCorpus(fd, { passages, now: Math.floor(Date.now() / 1000), seed: 1 });
  } finally {
    closeSync(fd);
  }
  console.error(formatSummary(await ingestWithProgress([corpusPath], { dataDir, shards, embedder })));
}

const config = readConfig();
if (!hasCommittedIndex(config.dataDir)) {
  const passages = Number(process.env.DEMO_PASSAGES || 20_000);
  if (!Number.isInteger(passages) || passages < 1) throw new Error(`invalid DEMO_PASSAGES: expected a positive integer, got "${process.env.DEMO_PASSAGES}"`);
  // Keyword search serves as soon as this returns; a model's vectors are made by the server in the background.
  await buildDemoIndex(config.dataDir, config.shards, passages, embedderForIndex(config.embedder, readManifest(config.dataDir)));
}

const server = await startServer(config);
const developmentKey = await server.services.stores.ensureDevelopmentKey();
if (developmentKey) {
  console.log('development key (shown once; only its hash is stored):');
  console.log(developmentKey);
}
logListening(server, config);
closeOnSignals(server);
