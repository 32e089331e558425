/**
 * SPEC 4.7: with `vertical` named, ground's receipt lists every other vertical the deployment
 * holds as not searched (as /describe lists them), with the objective's matches in each, not
 * only the verticals that have matches.
 */
import type { GroundResponse } from '@evidence/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './fixture.js';
import { graphShards } from './graph-corpus.js';

let service: TestServer;

beforeAll(async () => {
  service = await startTestServer(graphShards());
});
afterAll(() => service.close());

async function ground(query: string): Promise<GroundResponse> {
  const response = await service.get(`/ground?${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as GroundResponse;
}

describe('ground with a vertical named', () => {
  it('lists every other vertical held, even those without matches, with their match counts', async () => {
    const body = await ground('objective=harbor+bridge+cable+repairs&vertical=science');
    expect(body.coverage.not_searched.verticals_excluded).toEqual(['lifestyle', 'travel']);
    expect(body.coverage.not_searched.vertical_matches).toEqual({ lifestyle: 0, travel: 0 });
    expect(body.coverage.known_gaps.join(' ')).not.toContain('only vertical');
    // The same list /describe serves (its live values come from a background refresh).
    let verticals: string[] = [];
    for (let attempt = 0; attempt < 50 && verticals.length === 0; attempt++) {
      verticals = (await (await fetch(`${service.base}/describe`)).json()).verticals;
      if (verticals.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(verticals.filter((vertical) => vertical !== 'science')).toEqual(body.coverage.not_searched.verticals_excluded);
  });

  it('names the verticals with matches as a gap', async () => {
    const body = await ground('objective=ferry+sailings+timetable&vertical=science');
    expect(body.coverage.not_searched.vertical_matches).toEqual({ lifestyle: 0, travel: 1 });
    expect(body.coverage.known_gaps).toContain('only vertical science was searched; matches also exist in travel');
  });

  it('lists nothing as not searched without a vertical', async () => {
    const body = await ground('objective=harbor+bridge+cable+repairs');
    expect(body.coverage.not_searched.verticals_excluded).toEqual([]);
    expect(body.coverage.not_searched.vertical_matches).toBeUndefined();
  });
});
