import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unpack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { ShardReader, ShardWriter, embed, type ShardSearchResult } from '@evidence/native';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('native facade', () => {
  it('generated declarations match the committed snapshot (Rust/TS drift shows as a diff)', async () => {
    const declarations = readFileSync(join(packageDir, 'addon.d.cts'), 'utf8');
    await expect(declarations).toMatchFileSnapshot('./__snapshots__/addon.d.cts.snap');
  });

  it('embeds deterministically with the configured dimensions', () => {
    expect(Array.from(embed('sourdough starter', 16))).toEqual(Array.from(embed('sourdough starter', 16)));
    expect(embed('sourdough starter').length).toBe(128);
  });

  it('surfaces engine errors with their code, and closed handles say closed', () => {
    const directory = mkdtempSync(join(tmpdir(), 'native-'));
    try {
      const writer = ShardWriter.open(directory);
      expect(() => ShardWriter.open(directory)).toThrow(/^ELOCKED: /);
      expect(() => writer.add([{ id: '', pageId: 'p', passageNo: 0, url: 'https://a.org/', host: 'a.org', registrableDomain: 'a.org', owner: 'a.org', title: 't', text: 'x', vertical: 'v', lang: 'en', hostRank: 0.5, quality: 1, fetchedAt: 1, source: 'cc', storyId: 's', tld: 'org', wordCount: 1 }])).toThrow(/^EINVALID: /);
      writer.close();
      expect(() => writer.commit()).toThrow(/^ECLOSED: /);
      const reader = ShardReader.open(directory);
      const empty = unpack(reader.search({ query: 'anything', limit: 10 })) as ShardSearchResult;
      expect(empty).toMatchObject({ hits: [], total: 0, timed_out: false });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
