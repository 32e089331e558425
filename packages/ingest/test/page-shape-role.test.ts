/**
 * source_role where the page itself gives grounds (source-role-page.ts, origin.ts's own-release
 * markers) and the host name alone only guesses: researchers' own homepages on their own domains
 * (the host-name model read a person's name as a news name: secondary 0.31-0.39), a company's
 * own release on a plain brand name (secondary 0.26-0.33), a magazine's product test (ugc 0.11),
 * a user's space on a portal under a `blog.` host (the own-blog rule read it as primary).
 *
 * Real pages: the 22-page research crawl (test/data/sample-0000.warc.gz, allenai/dolma, ODC-By)
 * and four article pages and one news page of crawl/articles-dev.warc.gz as ingest extracts
 * them (test/data/page-shape-articles.json; scrapinghub/article-extraction-benchmark, MIT
 * packaging, each page's copyright with its publisher; see test/data/README.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { deriveSourceRole, publicSuffixOf, urlPath } from '@evidence/schemas';
import { buildPassages, crawlItemOf, deriveHostFields, OwnersTable, pageIdFor, parseRecordLine, readWarcItems } from '../src/index.js';
import { detectPageOrigin } from '../src/origin.js';
import { PACKAGE_DIRECTORY } from './helpers.js';

interface PageRole {
  role: string;
  confidence: number;
  origin: string;
}

async function crawlRoles(): Promise<Map<string, PageRole>> {
  const roles = new Map<string, PageRole>();
  for await (const item of readWarcItems(join(PACKAGE_DIRECTORY, 'test', 'data', 'sample-0000.warc.gz'), 'gzip')) {
    if (item.kind !== 'record') continue;
    const page = crawlItemOf(item);
    if (page.kind !== 'page') continue;
    const record = parseRecordLine(JSON.stringify(page.record));
    if (record.kind !== 'content') continue;
    const [passage] = buildPassages(record, pageIdFor(record.url, record.text), 'en');
    roles.set(record.url, { role: passage.sourceRole ?? 'unknown', confidence: passage.roleConfidence ?? 0, origin: passage.originType ?? '' });
  }
  return roles;
}

function articleRole(page: { url: string; title: string; text: string }): PageRole {
  const record = parseRecordLine(JSON.stringify({ ...page, fetched_at: 1_579_000_000 }));
  if (record.kind !== 'content') throw new Error('not a page');
  const [passage] = buildPassages(record, pageIdFor(record.url, record.text), 'en');
  return { role: passage.sourceRole ?? 'unknown', confidence: passage.roleConfidence ?? 0, origin: passage.originType ?? '' };
}

const ARTICLES: Array<{ url: string; title: string; text: string }> = JSON.parse(readFileSync(join(PACKAGE_DIRECTORY, 'test', 'data', 'page-shape-articles.json'), 'utf8'));
const article = (host: string) => ARTICLES.find((page) => new URL(page.url).hostname.endsWith(host))!;

describe('source_role from the page, over the host-name guess', () => {
  let research: Map<string, PageRole>;
  beforeAll(async () => {
    research = await crawlRoles();
  });

  it('reads researchers’ own homepages on their own domains as primary, and leaves university pages official', () => {
    for (const url of ['https://soldaini.net/', 'https://kyleclo.com/', 'https://kyleclo.com/research/', 'https://www.jonathanbragg.com/']) {
      expect(research.get(url)?.role, url).toBe('primary');
    }
    // The same shape on a university host agrees with its official vote and raises its confidence.
    expect(research.get('https://www.cs.washington.edu/people/faculty/weld')).toMatchObject({ role: 'official' });
    expect(research.get('https://www.cs.washington.edu/people/faculty/weld')!.confidence).toBeGreaterThanOrEqual(0.78);
    // A page of one researcher's site that is neither a name nor an introduction keeps the host's guess.
    expect(research.get('https://soldaini.net/facts/')?.role).toBe('secondary');
    // An institute's team page is not one person's homepage (it was primary before, from its host).
    expect(research.get('https://www.semanticscholar.org/research/research-team')?.role).toBe('primary');
  });

  it('reads a company’s own announcement on its own plain-named site as a press release, primary', () => {
    for (const host of ['my6sense.com', 'ascom.com']) {
      expect(articleRole(article(host)), host).toMatchObject({ role: 'primary', origin: 'press_release' });
    }
    // A newspaper's report of a company's launch is not the newspaper's own release.
    expect(articleRole(article('latimes.com'))).toMatchObject({ role: 'secondary', origin: 'original' });
    // The same release text under another site's name is not that site's own release.
    const ascom = article('ascom.com');
    expect(detectPageOrigin(ascom.text, 'newsdesk-example.com', undefined, new OwnersTable(), ascom.title)).toBe('none');
  });

  it('reads a magazine’s product test as secondary, not a forum post', () => {
    expect(articleRole(article('morebikes.co.uk')).role).toBe('secondary');
  });

  it('reads a roundup of other outlets’ reviews as an aggregator’s page', () => {
    expect(articleRole(article('digg.com')).role).toBe('aggregator');
    // A newspaper's report that quotes others but does not say it collects them stays secondary.
    expect(articleRole(article('latimes.com')).role).toBe('secondary');
  });

  it('reads a user’s space on a portal as ugc, and an organisation’s own blog as primary', () => {
    const role = (url: string) => {
      const fields = deriveHostFields(new URL(url).hostname);
      return deriveSourceRole({ host: fields.host, registrableDomain: fields.registrableDomain, publicSuffix: publicSuffixOf(fields), path: urlPath(url), pageOrigin: 'none' }).role;
    };
    expect(role('https://blog.naver.com/someuser01/223456789012')).toBe('ugc');
    expect(role('https://blog.csdn.net/some_user/article/details/123456789')).toBe('ugc');
    // Real URLs of the safety set: a fan-fiction archive's user pages.
    expect(role('http://archive.transformativeworks.org/users/BunBun630')).toBe('ugc');
    expect(role('https://blog.givewell.org/2018/10/09/a-grant-to-evidence-action-beta-to-prototype-test-and-scale-programs/')).toBe('primary');
    expect(role('https://blog.comwrap.com/die-elektronische-patientenakte-der-lange-marsch-ins-digitale-gesundheitswesen')).toBe('primary');
  });
});
