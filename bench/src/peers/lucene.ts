/**
 * The Lucene peer (Apache Lucene 10, BM25, in-process query speed): its sources live outside
 * this repository, in `../shared/peers/lucene` beside the checkout (LUCENE_PEER_DIR), with their
 * own README. This module finds them and a JDK 21 or newer (through the peer's own `peer.sh`),
 * builds the jar into a work directory (LUCENE_WORK_DIR, default bench/out/lucene: the shared
 * folder is never written), exports the passages our index holds in the format the peer reads
 * (one passage per JSONL record, with its id), has the peer index them once (cached per index)
 * and runs its closed-loop bench, whose table it reads.
 *
 * Every step that cannot run here says why and what to do ({ unavailable }), never a stack trace.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { finished } from 'node:stream/promises';
import type { MicroUnavailable } from '../micro/group.js';
import { BENCH_QUERIES } from '../queries.js';
import { loadIndexedPassages } from './passages.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Lucene's three ways to answer a top-10 query (see the peer's README, "bench"). */
export const LUCENE_MODES = ['exact', 'count', 'topk'] as const;
export type LuceneMode = (typeof LUCENE_MODES)[number];

export const LUCENE_MODE_LABELS: Record<LuceneMode, string> = {
  exact: 'Lucene, one pass, exact totals',
  count: 'Lucene, block-max WAND top-k + count (exact totals, two passes)',
  topk: 'Lucene, block-max WAND top-k, totals not exact',
};

export interface LuceneFigures {
  mode: LuceneMode;
  threads: number;
  qps: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  max: number;
  queries: number;
}

export interface LucenePeer {
  /** The peer's sources (README.md, peer.sh, pom.xml, src). */
  sourceDir: string;
  /** Where the jar is built and indexes are kept. */
  workDir: string;
  /** JAVA_HOME of the JDK 21+ the peer runs on. */
  javaHome: string;
  jar: string;
}

type Unavailable = MicroUnavailable;

export function lucenePeerDir(): string {
  return resolve(process.env.LUCENE_PEER_DIR || join(ROOT, '..', 'shared', 'peers', 'lucene'));
}

function luceneWorkDir(): string {
  return resolve(process.env.LUCENE_WORK_DIR || join(ROOT, 'bench', 'out', 'lucene'));
}

function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; inherit?: boolean } = {}) {
  return spawnSync(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    stdio: options.inherit ? ['ignore', 'pipe', 'inherit'] : 'pipe',
    maxBuffer: 64 * 2 ** 20,
  });
}

/**
 * The peer's sources and a JDK 21+ to run them, then the jar (built when missing or older than
 * the sources). Unavailable, with the reason and the remedy, when any of them is missing.
 */
export function prepareLucenePeer(log: (line: string) => void = console.log): LucenePeer | Unavailable {
  const sourceDir = lucenePeerDir();
  for (const file of ['peer.sh', 'pom.xml', 'src']) {
    if (!existsSync(join(sourceDir, file))) {
      return { unavailable: `no Lucene peer at ${sourceDir} (${file} missing): set LUCENE_PEER_DIR to the folder holding peer.sh and pom.xml (shared/peers/lucene beside the checkout)` };
    }
  }
  const found = run('bash', [join(sourceDir, 'peer.sh'), '--java-home']);
  if (found.status !== 0) {
    return { unavailable: `no JDK 21 or newer for the Lucene peer (${found.stderr.trim() || 'peer.sh --java-home failed'}); install one, or set PEER_JAVA or JAVA_HOME to it` };
  }
  const javaHome = found.stdout.trim();
  const workDir = luceneWorkDir();
  const buildDir = join(workDir, 'build');
  const jar = join(buildDir, 'target', 'peer.jar');
  const newestSource = (): number =>
    Math.max(
      statSync(join(sourceDir, 'pom.xml')).mtimeMs,
      ...readdirSync(join(sourceDir, 'src'), { recursive: true }).map((file) => statSync(join(sourceDir, 'src', String(file))).mtimeMs),
    );
  const sourcesChanged = () => !existsSync(jar) || newestSource() > statSync(jar).mtimeMs;
  if (sourcesChanged()) {
    if (run('mvn', ['--version']).status !== 0) {
      return { unavailable: 'Maven (mvn) is not installed: the Lucene peer is built with it (Debian: apt-get install maven)' };
    }
    log(`lucene peer: building ${jar} from ${sourceDir} with ${javaHome} (mvn package, a minute or two the first time)`);
    rmSync(buildDir, { recursive: true, force: true });
    mkdirSync(buildDir, { recursive: true });
    for (const part of ['pom.xml', 'src']) cpSync(join(sourceDir, part), join(buildDir, part), { recursive: true });
    const built = run('mvn', ['-q', '-B', 'package'], { cwd: buildDir, env: { JAVA_HOME: javaHome } });
    if (built.status !== 0 || !existsSync(jar)) {
      return { unavailable: `the Lucene peer did not build (mvn package in ${buildDir}, exit ${built.status}):\n${(built.stdout + built.stderr).trim().split('\n').slice(-15).join('\n')}` };
    }
  }
  return { sourceDir, workDir, javaHome, jar };
}

export function peerCommand(peer: LucenePeer, args: string[], inherit = false) {
  return run('bash', [join(peer.sourceDir, 'peer.sh'), ...args], { env: { PEER_JAR: peer.jar, JAVA_HOME: peer.javaHome }, inherit });
}

/**
 * Write the passages the index in `dataDir` holds (rebuilt from `corpusPath`, the JSONL it was
 * ingested from) as one record per passage, `{id, url, title, text}`: the peer indexes a record
 * with an id as one passage under that id, so both engines hold the same passages.
 */
export async function exportPassages(corpusPath: string, dataDir: string, outPath: string): Promise<number> {
  const corpus = await loadIndexedPassages(corpusPath, dataDir);
  mkdirSync(dirname(outPath), { recursive: true });
  const out = createWriteStream(outPath);
  for (const passage of corpus.passages) {
    const line = `${JSON.stringify({ id: passage.id, url: passage.url, title: passage.title, text: passage.text })}\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  out.end();
  await finished(out);
  return corpus.passages.length;
}

/** What identifies an index's content: its manifest and ledger sizes and times, and the corpus file's. */
function indexStamp(dataDir: string, corpusPath: string): string {
  const parts = [resolve(dataDir), resolve(corpusPath)];
  for (const path of [join(dataDir, 'index.json'), corpusPath]) {
    const stat = statSync(path);
    parts.push(`${stat.size}:${Math.round(stat.mtimeMs)}`);
  }
  return parts.join('|');
}

export interface LuceneIndex {
  directory: string;
  /** Passages exported to the peer (what our index holds). */
  passages: number;
  /** The peer's own `index` line (documents, time). */
  summary: string;
}

/**
 * The Lucene index of the passages `dataDir` holds, in fields title and text (each query term
 * searched as title^1.5 OR text, as ours), force-merged to one segment; built once per index
 * (the stamp of DATA_DIR's manifest and the corpus file) and reused.
 */
export async function luceneIndexFor(peer: LucenePeer, dataDir: string, corpusPath: string, log: (line: string) => void = console.log): Promise<LuceneIndex | Unavailable> {
  if (!existsSync(corpusPath)) return { unavailable: `BENCH_CORPUS ${corpusPath} does not exist: the JSONL the index in ${dataDir} was built from` };
  const stamp = indexStamp(dataDir, corpusPath);
  const key = Buffer.from(stamp).toString('base64url').slice(-48);
  const directory = join(peer.workDir, 'indexes', key);
  const doneFile = join(directory, 'done.json');
  if (existsSync(doneFile)) {
    const done = JSON.parse(readFileSync(doneFile, 'utf8')) as LuceneIndex & { stamp: string };
    if (done.stamp === stamp) return { directory: join(directory, 'lucene'), passages: done.passages, summary: done.summary };
  }
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  const passagesFile = join(directory, 'passages.jsonl');
  log(`lucene peer: exporting the passages of ${dataDir} (from ${corpusPath}) to ${passagesFile}`);
  const passages = await exportPassages(corpusPath, dataDir, passagesFile);
  log(`lucene peer: indexing ${passages} passages (fields title,text, one segment)`);
  const indexed = peerCommand(peer, ['index', passagesFile, join(directory, 'lucene'), '--fields', 'title,text']);
  if (indexed.status !== 0) return { unavailable: `the Lucene peer could not index ${passagesFile}: ${indexed.stderr.trim().split('\n').slice(-5).join('\n')}` };
  rmSync(passagesFile);
  const summary = indexed.stdout.trim().split('\n').filter(Boolean).pop() ?? '';
  writeFileSync(doneFile, JSON.stringify({ stamp, passages, summary }));
  return { directory: join(directory, 'lucene'), passages, summary };
}

/** The rows of the peer's bench table (`| mode | what | threads | QPS | p50 ms | ...`), by mode. */
export function parseLuceneBench(stdout: string): LuceneFigures[] {
  const figures: LuceneFigures[] = [];
  for (const line of stdout.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    // ['', mode, what, threads, QPS, p50, p90, p99, mean, max, queries, '']
    if (cells.length !== 12 || !(LUCENE_MODES as readonly string[]).includes(cells[1])) continue;
    const [threads, qps, p50, p90, p99, mean, max, queries] = cells.slice(3, 11).map(Number);
    if ([threads, qps, p50, p90, p99, mean, max, queries].some((value) => !Number.isFinite(value))) continue;
    figures.push({ mode: cells[1] as LuceneMode, threads, qps, p50, p90, p99, mean, max, queries });
  }
  return figures;
}

export interface LuceneRun {
  figures: LuceneFigures[];
  /** The peer's header lines: versions, index, the check of totals. */
  header: string[];
}

/**
 * The peer's closed-loop bench on `index`: `threads` threads cycling through `queries` (the
 * bench queries unless given), top 10, for each mode `warmupSeconds` discarded then `seconds` timed (one after the other, never
 * beside another load).
 */
export function runLuceneBench(
  peer: LucenePeer,
  index: LuceneIndex,
  threads: number,
  seconds: number,
  warmupSeconds: number,
  modes: readonly LuceneMode[] = LUCENE_MODES,
  queries: readonly string[] = BENCH_QUERIES,
): LuceneRun | Unavailable {
  const queriesFile = join(peer.workDir, queries === BENCH_QUERIES ? 'queries.txt' : 'queries-subset.txt');
  mkdirSync(peer.workDir, { recursive: true });
  writeFileSync(queriesFile, `${queries.join('\n')}\n`);
  const ran = peerCommand(peer, ['bench', index.directory, queriesFile, String(threads), String(seconds), '--warmup', String(warmupSeconds), '--modes', modes.join(','), '--k', '10']);
  const figures = ran.status === 0 ? parseLuceneBench(ran.stdout) : [];
  if (figures.length !== modes.length) {
    return { unavailable: `the Lucene peer's bench failed (exit ${ran.status}): ${(ran.stderr || ran.stdout).trim().split('\n').slice(-5).join('\n')}` };
  }
  const header = ran.stdout.split('\n').filter((line) => /^(lucene-peer bench|index |check:)/.test(line));
  return { figures, header };
}
