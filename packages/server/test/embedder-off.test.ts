import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passage, startTestServer, type TestServer } from './fixture.js';

let service: TestServer;
beforeAll(async () => {
  service = await startTestServer([[passage('a:0', 'sourdough starter'), passage('b:0', 'sourdough loaf')]], { EMBEDDER: 'none' });
});
afterAll(() => service.close());

describe('a node with no embedder (EMBEDDER=none)', () => {
  it('answers /similar with 400', async () => {
    const response = await service.get('/similar?id=a:0');
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('no embedder');
  });

  it('searches by keyword and reports the mode actually used', async () => {
    const body = await (await service.get('/search?q=sourdough&mode=hybrid')).json();
    expect(body.mode).toBe('keyword');
    expect(body.total).toBe(2);
  });
});
