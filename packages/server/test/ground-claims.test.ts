/**
 * GET /ground with a claim, over real HTTP, on real SciFact abstracts (the passages ground returned
 * for six train claims: packages/evidence/test/fixtures/scifact-claims.json, source and licence
 * there): the relation, the sentences it rests on, the contradictions list, the receipt's gap and
 * next action when no item bears on the claim, and keyword mode's gap for stop-word-only matches.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroundResponseSchema, type GroundResponse } from '@evidence/schemas';
import { passage, startTestServer, type TestServer } from './fixture.js';

interface Pair {
  claim_id: number;
  claim: string;
  url: string;
  title: string;
  passage: string;
}
const { pairs } = JSON.parse(readFileSync(new URL('../../evidence/test/fixtures/scifact-claims.json', import.meta.url), 'utf8')) as { pairs: Pair[] };
const pair = (id: number) => pairs.find((candidate) => candidate.claim_id === id)!;

let service: TestServer;

beforeAll(async () => {
  const abstracts = pairs.map((entry) => {
    const host = new URL(entry.url).host;
    return passage(`doc${entry.claim_id}:0`, entry.passage, { url: entry.url, host, registrableDomain: host, owner: host, title: entry.title, vertical: 'science', contentType: 'academic' });
  });
  service = await startTestServer([abstracts]);
});
afterAll(() => service.close());

async function ground(query: Record<string, string>): Promise<GroundResponse> {
  const response = await service.get(`/ground?${new URLSearchParams({ require_role: '', mode: 'keyword', ...query })}`);
  expect(response.status, await response.clone().text()).toBe(200);
  const body = (await response.json()) as GroundResponse;
  expect(GroundResponseSchema.safeParse(body).error).toBeUndefined();
  return body;
}

describe('GET /ground with a SciFact claim', () => {
  it('contradicts on the abstract reporting the opposite, quoting the sentences it rests on', async () => {
    const { claim } = pair(1347); // memory CD4+ T cells "greatly diminish" chemokine production; the abstract: they enhance it
    const body = await ground({ objective: claim, claim });
    const item = body.evidence.find((candidate) => candidate.hit.id === 'doc1347:0')!;
    expect(item).toMatchObject({ claim_relation: 'contradicts', relation_basis: 'passage' });
    expect(item.relation_confidence).toBeGreaterThan(0.5);
    const [first] = item.relation_sentences!;
    expect(first.text).toMatch(/CD4\+ T cells enhances production of multiple innate inflammatory cytokines and chemokines/);
    expect(item.hit.snippet.slice(first.start, first.end)).toBe(first.text);
    expect(body.contradictions).toContain('doc1347:0');
    expect(body.provenance.experimental.join(' ')).toMatch(/claim_relation: a logistic model/);
    expect(body.coverage.known_gaps.join(' ')).not.toMatch(/bears on the claim|decides the claim/);
  });

  it('supports on the abstract that reports the finding', async () => {
    const { claim } = pair(67);
    const body = await ground({ objective: claim, claim });
    expect(body.evidence.find((candidate) => candidate.hit.id === 'doc67:0')).toMatchObject({ claim_relation: 'supports' });
  });

  it('says when no returned item bears on the claim, and suggests a search for it', async () => {
    const claim = 'tuberculosis vaccines are brewed from sourdough starters and barley';
    const body = await ground({ objective: claim, claim });
    expect(body.evidence.length).toBeGreaterThan(0);
    for (const item of body.evidence) {
      expect(item).toMatchObject({ claim_relation: 'unresolved', relation_confidence: 0 });
      expect(item.relation_sentences).toBeUndefined();
    }
    expect(body.coverage.known_gaps).toContain(
      `no returned item bears on the claim: none of the ${body.evidence.length} item${body.evidence.length === 1 ? '' : 's'} has a sentence holding enough of the claim's content words, so every claim_relation is unresolved`,
    );
    expect(body.next_actions).toContainEqual(expect.objectContaining({ action: 'search', target: claim }));
  });

  it('says when items bear on the claim but none decides it, and points at the one to read', async () => {
    const { claim } = pair(34); // folate deficiency and homocysteine: the abstract bears on it, the cues do not decide
    const body = await ground({ objective: claim, claim });
    const item = body.evidence.find((candidate) => candidate.hit.id === 'doc34:0')!;
    expect(item).toMatchObject({ claim_relation: 'unresolved', relation_confidence: 0 });
    expect(item.relation_sentences![0].text).toMatch(/homocysteine/);
    expect(body.coverage.known_gaps.find((gap) => gap.startsWith('no returned item decides the claim'))).toMatch(/^no returned item decides the claim: 1 of \d+ items? bears? on it/);
    expect(body.next_actions).toContainEqual(expect.objectContaining({ action: 'get_document', target: 'doc34:0' }));
  });

  it('keyword mode names stop-word-only matches as such, not as vector similarity', async () => {
    const body = await ground({ objective: 'the tuberculosis' });
    const gap = body.coverage.known_gaps.find((line) => /were not considered/.test(line));
    expect(gap).toMatch(/matched only stop words or short words of the objective/);
    expect(body.coverage.known_gaps.join(' ')).not.toMatch(/vector similarity/);
  });
});
