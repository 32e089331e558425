/** URL normalisation and the admission ledger follower behind why_not and known_urls. */
import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LEDGER_CHUNK_BYTES, LedgerIndex, normaliseUrl, presenceOf } from '@evidence/evidence';

const directories: string[] = [];
afterEach(() => {
  while (directories.length) rmSync(directories.pop()!, { recursive: true, force: true });
});

function ledgerPath(): string {
  const directory = mkdtempSync(join(tmpdir(), 'ledger-'));
  directories.push(directory);
  return join(directory, 'ledger.jsonl');
}

const line = (event: object) => `${JSON.stringify(event)}\n`;

describe('normaliseUrl', () => {
  it('lower-cases scheme and host, drops the default port and the fragment, keeps path and query', () => {
    expect(normaliseUrl('HTTPS://Example.ORG:443/A/b?Q=1&a=2#frag')).toBe('https://example.org/A/b?Q=1&a=2');
    expect(normaliseUrl('http://example.org:80')).toBe('http://example.org/');
    expect(normaliseUrl('http://example.org:8080/x/')).toBe('http://example.org:8080/x/');
    expect(normaliseUrl(' https://example.org/a/../b ')).toBe('https://example.org/b');
    expect(normaliseUrl('https://bücher.example/')).toBe('https://xn--bcher-kva.example/');
    for (const bad of ['not a url', 'ftp://example.org/', 'mailto:a@b.example', '']) expect(normaliseUrl(bad), bad).toBeNull();
  });
});

describe('LedgerIndex', () => {
  it('reads admissions and removals; a re-crawl keeps the URL present, any other removal empties it', async () => {
    const path = ledgerPath();
    writeFileSync(
      path,
      line({ event: 'admitted', url: 'https://a.example/1', page_id: 'p1', passages: 2, fetched_at: 10, at: 10 }) +
        line({ event: 'removed', url: 'https://a.example/1', page_id: 'p1', reason: 'superseded', superseded_by: 'p2:0', removed_at: 20, at: 20 }) +
        line({ event: 'admitted', url: 'https://a.example/1', page_id: 'p2', passages: 1, fetched_at: 20, at: 20 }) +
        line({ event: 'admitted', url: 'https://a.example/2', page_id: 'q1', passages: 1, fetched_at: 10, at: 10 }) +
        line({ event: 'removed', url: 'https://A.example:443/2', page_id: 'q1', reason: 'tombstoned-source', removed_at: 30, at: 30 }) +
        'not json\n',
    );
    const ledger = new LedgerIndex(path);
    const recrawled = await ledger.lookup('https://a.example/1#top');
    expect(recrawled?.pageId).toBe('p2');
    expect(presenceOf(recrawled, null, false)).toEqual({ status: 'present' });
    const removed = await ledger.lookup('https://a.example/2');
    expect(presenceOf(removed, null, false)).toEqual({ status: 'removed', reason: 'tombstoned-source', removed_at: 30, superseded_by: null });
    expect(presenceOf(await ledger.lookup('https://a.example/3'), null, false)).toEqual({ status: 'unknown' });
    expect(presenceOf(await ledger.lookup('https://a.example/3'), null, true)).toBeNull();
    expect(ledger.size).toBe(2);
  });

  it('follows appends, completes a torn line, and starts over when the file is replaced', async () => {
    const path = ledgerPath();
    writeFileSync(path, '');
    const ledger = new LedgerIndex(path);
    expect(await ledger.lookup('https://a.example/x')).toBeUndefined();
    const event = line({ event: 'removed', url: 'https://a.example/x', page_id: null, reason: 'stale', removed_at: 5, at: 5 });
    appendFileSync(path, event.slice(0, 20));
    expect(await ledger.lookup('https://a.example/x')).toBeUndefined();
    appendFileSync(path, event.slice(20));
    expect((await ledger.lookup('https://a.example/x'))?.removal?.reason).toBe('stale');
    const replacement = `${path}.new`;
    writeFileSync(replacement, line({ event: 'admitted', url: 'https://a.example/y', page_id: 'y', passages: 1, fetched_at: 1, at: 1 }));
    renameSync(replacement, path);
    expect(await ledger.lookup('https://a.example/x')).toBeUndefined();
    expect((await ledger.lookup('https://a.example/y'))?.pageId).toBe('y');
  });

  it('reads a ledger larger than one chunk, multi-byte characters across chunk edges included', async () => {
    const path = ledgerPath();
    const events: string[] = [];
    for (let index = 0; events.join('').length < LEDGER_CHUNK_BYTES * 3; index++) {
      events.push(line({ event: 'admitted', url: `https://ü.example/${index}/${'é'.repeat(index % 50)}`, page_id: `p${index}`, passages: 1, fetched_at: 1, at: 1 }));
    }
    writeFileSync(path, events.join(''));
    const ledger = new LedgerIndex(path);
    await ledger.refresh();
    expect(ledger.size).toBe(events.length);
    const last = events.length - 1;
    expect((await ledger.lookup(`https://ü.example/${last}/${'é'.repeat(last % 50)}`))?.pageId).toBe(`p${last}`);
  });

  it('answers for a missing ledger as for an empty one', async () => {
    const ledger = new LedgerIndex(join(tmpdir(), 'no-such-ledger-dir', 'ledger.jsonl'));
    expect(await ledger.lookup('https://a.example/')).toBeUndefined();
  });
});
