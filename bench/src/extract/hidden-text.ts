/**
 * Hidden text on the hidden-text set (../shared/data/hidden-text: 40 attacked pages, their 40
 * untouched twins, 10 pages hiding furniture) and on real crawled pages, through the code ingest
 * runs: each WARC record to a page record (`crawlItemOf`), its hidden pieces judged
 * (`flaggedHiddenPieces`, what ingest writes to hidden-text.jsonl), its text split into passages
 * (`splitIntoPassages`) and each passage's flags computed as the service does (`riskReport`).
 *
 * A page is flagged when a hidden piece raised `hidden_text` or a passage is `instruction_like`
 * (the payload reached the text). A leak is a payload whose first words appear in a passage.
 * The rule has no parameter per technique, so its recall on each technique is what a held-out
 * technique would see (leave-one-technique-out); each of its two parts is shown alone too. The
 * baseline in the same run: "any hidden piece of six words or more flags the page" (what a
 * page-level "has hidden text" signal does).
 */
import { readFileSync } from 'node:fs';
import { flaggedHiddenPieces, hiddenPieceReason, isHiddenProse, riskReport } from '@evidence/evidence';
import { crawlItemOf, readWarcItems, splitIntoPassages } from '@evidence/ingest';
import type { HiddenPieceRecord } from '@evidence/schemas';

interface Label {
  url: string;
  kind: 'attack' | 'clean' | 'furniture';
  technique: string | null;
  payload?: string;
}

interface JudgedPage {
  url: string;
  passages: string[];
  pieces: HiddenPieceRecord[];
  /** The pieces that raised hidden_text. */
  flaggedPieces: number;
  instructionLike: boolean;
  /** Passages that carry hidden_text (the page's flag, or hidden characters in the text). */
  hiddenPassages: number;
  seconds: number;
}

const key = (text: string): string => (text.match(/[\p{L}\p{N}_]+/gu) ?? []).join(' ').toLowerCase();
const words = (text: string): number => (text.match(/[\p{L}\p{N}_]+/gu) ?? []).length;

/** Every HTML response of a WARC, judged as ingest and the service judge it. */
export async function judgeWarc(file: string): Promise<JudgedPage[]> {
  const pages: JudgedPage[] = [];
  for await (const item of readWarcItems(file, 'gzip')) {
    if (item.kind !== 'record') continue;
    const started = performance.now();
    const crawled = crawlItemOf(item);
    if (crawled.kind !== 'page') continue;
    const record = crawled.record as { url: string; text: string; hidden_pieces?: HiddenPieceRecord[] };
    const pieces = record.hidden_pieces ?? [];
    const flaggedPieces = flaggedHiddenPieces(pieces).length;
    const passages = splitIntoPassages(record.text);
    let instructionLike = false;
    let hiddenPassages = 0;
    for (const passage of passages) {
      const flags = riskReport(passage, { hostRank: 1, hiddenOnPage: flaggedPieces > 0 }).flags;
      if (flags.includes('instruction_like')) instructionLike = true;
      if (flags.includes('hidden_text')) hiddenPassages++;
    }
    pages.push({ url: record.url, passages, pieces, flaggedPieces, instructionLike, hiddenPassages, seconds: (performance.now() - started) / 1000 });
  }
  return pages;
}

export interface Rate {
  hit: number;
  of: number;
}

export interface HiddenSetResult {
  attacked: Rate;
  clean: Rate;
  furniture: Rate;
  leaks: Rate;
  /** technique -> [full rule, instruction rule alone, prose-inside-main rule alone, baseline] */
  byTechnique: Map<string, { full: Rate; instruction: Rate; prose: Rate; baseline: Rate }>;
  baseline: { attacked: Rate; clean: Rate; furniture: Rate };
}

const rate = (flags: boolean[]): Rate => ({ hit: flags.filter(Boolean).length, of: flags.length });

export async function measureHiddenSet(directory: string): Promise<HiddenSetResult> {
  const labels = readFileSync(`${directory}/labels.jsonl`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Label);
  const byUrl = new Map(labels.map((label) => [label.url, label]));
  const pages = await judgeWarc(`${directory}/pages.warc.gz`);
  const rows = pages.flatMap((page) => {
    const label = byUrl.get(page.url);
    if (label === undefined) return [];
    const instructionPiece = page.pieces.some((piece) => hiddenPieceReason(piece, true) !== null);
    const prosePiece = page.pieces.some((piece) => isHiddenProse(piece));
    const baseline = page.pieces.some((piece) => words(piece.text) >= 6) || page.instructionLike;
    const payload = label.payload === undefined ? undefined : key(label.payload).split(' ').slice(0, 8).join(' ');
    const leaked = payload !== undefined && page.passages.some((passage) => key(passage).includes(payload));
    return [{ label, flagged: page.flaggedPieces > 0 || page.instructionLike, instruction: instructionPiece || page.instructionLike, prose: prosePiece, baseline, leaked }];
  });
  const of = (kind: Label['kind']) => rows.filter((row) => row.label.kind === kind);
  const byTechnique = new Map<string, { full: Rate; instruction: Rate; prose: Rate; baseline: Rate }>();
  for (const technique of [...new Set(of('attack').map((row) => row.label.technique ?? ''))].sort()) {
    const attacked = of('attack').filter((row) => row.label.technique === technique);
    byTechnique.set(technique, {
      full: rate(attacked.map((row) => row.flagged)),
      instruction: rate(attacked.map((row) => row.instruction)),
      prose: rate(attacked.map((row) => row.prose)),
      baseline: rate(attacked.map((row) => row.baseline)),
    });
  }
  return {
    attacked: rate(of('attack').map((row) => row.flagged)),
    clean: rate(of('clean').map((row) => row.flagged)),
    furniture: rate(of('furniture').map((row) => row.flagged)),
    leaks: rate(of('attack').map((row) => row.leaked)),
    byTechnique,
    baseline: { attacked: rate(of('attack').map((row) => row.baseline)), clean: rate(of('clean').map((row) => row.baseline)), furniture: rate(of('furniture').map((row) => row.baseline)) },
  };
}

export interface CrawlFlagResult {
  file: string;
  pages: number;
  flaggedPages: number;
  passages: number;
  hiddenPassages: number;
  baselinePages: number;
  hiddenPieces: number;
  msPerPage: number;
}

/** Real crawled pages, none of them attacked: how many pages and passages carry hidden_text. */
export async function measureCrawlFlags(file: string): Promise<CrawlFlagResult> {
  const pages = await judgeWarc(file);
  return {
    file,
    pages: pages.length,
    flaggedPages: pages.filter((page) => page.flaggedPieces > 0).length,
    passages: pages.reduce((sum, page) => sum + page.passages.length, 0),
    hiddenPassages: pages.reduce((sum, page) => sum + page.hiddenPassages, 0),
    baselinePages: pages.filter((page) => page.pieces.some((piece) => words(piece.text) >= 6)).length,
    hiddenPieces: pages.reduce((sum, page) => sum + page.pieces.length, 0),
    msPerPage: (1000 * pages.reduce((sum, page) => sum + page.seconds, 0)) / Math.max(1, pages.length),
  };
}
