/**
 * End to end on real pages: a crawl WARC of pages from the hidden-text set (real articles, each
 * with an instruction to an AI hidden by CSS, or with hidden furniture; packages/ingest/test/data,
 * sources in its README) ingested, then read over REST. The attacked page's passages carry
 * `hidden_text`, `/doc?risk=true` says which piece, how it was hidden and why, and the hidden
 * instruction is in no passage; a page that hides only a sign-up form or an ad-blocker notice
 * carries no flag. The ingest CLI and a real server, through the fixture's startIngestedServer.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ledgerPath } from '@evidence/native';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngestedServer, type IngestedServer } from './fixture.js';

const DATA = join(import.meta.dirname, '..', '..', 'ingest', 'test', 'data');
let dataDir: string;
let server: IngestedServer;

interface Label {
  url: string;
  kind: string;
  technique: string | null;
  payload?: string;
}
const labels = readFileSync(join(DATA, 'hidden-text-sample.labels.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Label);
/** Page id and passage count of every admitted page, by URL. */
const admitted = new Map<string, { pageId: string; passages: number }>();

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'hidden-text-crawl-'));
  server = await startIngestedServer([join(DATA, 'hidden-text-sample.warc.gz')], dataDir);
  for (const line of readFileSync(ledgerPath(dataDir), 'utf8').trim().split('\n')) {
    const event = JSON.parse(line) as { event: string; url: string; page_id: string; passages: number };
    if (event.event === 'admitted') admitted.set(event.url, { pageId: event.page_id, passages: event.passages });
  }
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface DocBody {
  text: string;
  risk_flags: string[];
  hidden_pieces?: { technique: string; excerpt: string; element?: string; reason: string }[];
}

async function documentsOf(url: string): Promise<DocBody[]> {
  const page = admitted.get(url);
  if (page === undefined) throw new Error(`${url} was not admitted`);
  const bodies: DocBody[] = [];
  for (let passageNo = 0; passageNo < page.passages; passageNo++) {
    bodies.push(await server.get<DocBody>(`/doc/${page.pageId}:${passageNo}?risk=true`));
  }
  return bodies;
}

describe('hidden text of crawled pages over REST', () => {
  it('flags every passage of an attacked page, names the hidden piece and why, and indexes none of the instruction', async () => {
    // The attacked pages whose untouched twin is not in the file (a twin has the same text, so one of the two is a mirror).
    const attacks = labels.filter((label) => label.kind === 'attack' && label.technique !== 'display_none');
    expect(attacks.length).toBe(3);
    for (const label of attacks) {
      const documents = await documentsOf(label.url);
      expect(documents.length).toBeGreaterThan(0);
      const payloadStart = label.payload!.split(/\s+/).slice(0, 5).join(' ');
      for (const document of documents) {
        expect(document.risk_flags).toContain('hidden_text');
        expect(document.text).not.toContain(payloadStart);
        expect(document.hidden_pieces).toHaveLength(1);
        const piece = document.hidden_pieces![0];
        expect(piece.technique).toBe(label.technique === 'white_on_white' ? 'color_as_background' : label.technique);
        expect(label.payload!.startsWith(piece.excerpt.replace(/\.\.\.$/, '').slice(0, 40))).toBe(true);
        expect(piece.reason).toMatch(/^hidden by .*addresses an AI system/);
      }
    }
  });

  it('leaves pages that hide only furniture unflagged, with no hidden_pieces', async () => {
    const furniture = labels.filter((label) => label.kind === 'furniture');
    expect(furniture.length).toBe(3);
    for (const label of furniture) {
      for (const document of await documentsOf(label.url)) {
        expect(document.risk_flags).not.toContain('hidden_text');
        expect(document.hidden_pieces).toBeUndefined();
      }
    }
  });
});
