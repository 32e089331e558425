/**
 * Pages known only by their address, as a labelled host list or a site directory gives them
 * (issue 31's check ingests such sets with no signal fields and reads the signals back over
 * REST): JSONL records through `npm run ingest`'s command and a real server. The hosts and the
 * site title are real entries of ../shared/data/signals (source_role: MBFC's news media list;
 * vertical: a Curlie site with a title and no description); nothing here depends on that folder.
 *
 * - A record whose text is its host name has no register for the content-type text model to
 *   read: its source role is the one its host, URL and origin give (the module-level figure),
 *   not a vote from a guess over one word (before, a TV station's host read as a `forum` made it
 *   `ugc`, and a host read as a `product` made a newspaper `primary`).
 * - A record with a title and no text, or with neither, is a page: present over why_not with the
 *   signals its URL, host and title give (before, it was refused as a malformed line).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deriveHostFields, deriveVertical } from '@evidence/ingest';
import { deriveSourceRole, publicSuffixOf } from '@evidence/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngestedServer, type IngestedServer } from './fixture.js';

const FETCHED_AT = 1_790_000_000;
const NEWS_HOSTS = ['1011now.com', '604now.com', 'wral.com'];
const SITE = { url: 'http://www.koshericecream.com/', host: 'koshericecream.com', title: "Klein's Ice Cream  Klein's Ice Cream" };

interface WhyNot {
  status: string;
  hit?: { id: string; url: string; vertical: string; safety?: string; host_rank: number; content_type?: string };
}
interface Corroborated {
  evidence: Array<{ hit: { id: string }; source_role: string; role_confidence: number }>;
}

let directory: string;
let server: IngestedServer;

/** The role of a page at the host's root with nothing else known (bench:signals' host-only figure). */
function hostOnlyRole(host: string): string {
  const fields = deriveHostFields(host);
  return deriveSourceRole({ host: fields.host, registrableDomain: fields.registrableDomain, publicSuffix: publicSuffixOf(fields), path: '/', pageOrigin: 'none' }).role;
}

async function roleOf(url: string): Promise<{ role: string; hit: NonNullable<WhyNot['hit']> }> {
  const found = await server.get<WhyNot>(`/why_not?url=${encodeURIComponent(url)}`);
  expect(found.status, url).toBe('present');
  const corroborated = await server.get<Corroborated>(`/corroborate?id=${encodeURIComponent(found.hit!.id)}`);
  const own = corroborated.evidence.find((item) => item.hit.id === found.hit!.id) ?? corroborated.evidence[0];
  return { role: own.source_role, hit: found.hit! };
}

describe('pages known by their address only, ingested and served', () => {
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'host-records-'));
    const lines = [
      ...NEWS_HOSTS.map((host) => ({ url: `https://${host}/`, title: host, text: host, fetched_at: FETCHED_AT })),
      { url: 'https://www.ok.gov/', title: '', text: '', fetched_at: FETCHED_AT },
      { url: SITE.url, title: SITE.title, text: '', fetched_at: FETCHED_AT },
    ];
    const file = join(directory, 'hosts.jsonl');
    writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    server = await startIngestedServer([file], join(directory, 'data'));
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('a host given as its page text gets the role its host gives: news stations stay secondary', async () => {
    for (const host of NEWS_HOSTS) {
      const { role } = await roleOf(`https://${host}/`);
      expect(role, host).toBe(hostOnlyRole(host));
      expect(role, host).toBe('secondary');
    }
  });

  it('a record with no text, or with neither title nor text, is a page with the signals its address and title give', async () => {
    const government = await roleOf('https://www.ok.gov/');
    expect(government.role).toBe('official');
    const site = await server.get<WhyNot>(`/why_not?url=${encodeURIComponent(SITE.url)}`);
    expect(site.status).toBe('present');
    expect(site.hit!.vertical).toBe(deriveVertical({ title: SITE.title, text: '', host: 'www.koshericecream.com' }).value);
    expect(site.hit!.safety).toBe('safe');
  });
});
