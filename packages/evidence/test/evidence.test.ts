/**
 * The evidence computations as pure functions: provenance fallbacks, the story walk that forms
 * origins, selection under the bar and the budget, independence, statuses, claim relations,
 * changes, the context pack, and determinism.
 */
import { describe, expect, it } from 'vitest';
import {
  buildOrigins,
  changesResponse,
  contextPack,
  derivedRole,
  estimateTokens,
  groundResponse,
  hitTokens,
  objectiveCoverage,
  objectiveTerms,
  originId,
  originMarkedInPassage,
  originTypeOf,
  roleOf,
  selectParaphrases,
  supportedHits,
  type ChangesTask,
  type EvidenceHit,
} from '@evidence/evidence';
import { ChangesParamsSchema, ChangesResponseSchema, ContextParamsSchema, deriveSourceRole, GroundResponseSchema, parseParams } from '@evidence/schemas';
import { DAY, groundTask, hit, HOUR, NOW, retrievalOf, retrieved } from './helpers.js';

const WIRE = 'CAPE TOWN (AW) — Scientists confirmed lunar water ice deposits near the crater, officials said.';

describe('origin type and role fallbacks', () => {
  it('reads wire, press release and republish markers', () => {
    expect(originMarkedInPassage(WIRE)).toBe('wire');
    expect(originMarkedInPassage('LONDON, March 3 (Global Dispatch) - Markets fell.')).toBe('wire');
    expect(originMarkedInPassage('The council met. Associated Wire writer Jane Doe in Paris contributed to this report.')).toBe('wire');
    expect(originMarkedInPassage('FOR IMMEDIATE RELEASE. Acme Corp today announced a merger.')).toBe('press_release');
    expect(originMarkedInPassage('BOSTON /PR Newswire/ -- Acme (NASDAQ: ACME) today announced results.')).toBe('press_release');
    expect(originMarkedInPassage('Acme builds rockets. Media contact: Ann Lee, press@acme.example.')).toBe('press_release');
    expect(originMarkedInPassage('Scientists confirmed ice. Source: Associated Wire.')).toBe('republish');
    expect(originMarkedInPassage('This article first appeared in the Metro Tribune.')).toBe('republish');
    expect(originMarkedInPassage('A plain report about lunar ice with no marker at all.')).toBeNull();
  });

  it('prefers what ingest recorded over what the text suggests', () => {
    expect(originTypeOf(hit('a:0', { snippet: WIRE, origin_type: 'original' }))).toEqual({ type: 'original', stored: true, marked: false });
    expect(originTypeOf(hit('a:0', { snippet: WIRE }))).toEqual({ type: 'wire', stored: false, marked: true });
    expect(originTypeOf(hit('a:0', { origin_type: 'bogus' }))).toEqual({ type: 'original', stored: false, marked: false });
    expect(roleOf(hit('a:0', { source_role: 'primary', role_confidence: 0.66, host: 'www.nasa.gov' }), 'original')).toEqual({ role: 'primary', confidence: 0.66, stored: true });
    expect(roleOf(hit('a:0', { source_role: 'ugc' }), 'original')).toEqual({ role: 'ugc', confidence: 0.8, stored: true });
  });

  it('derives roles from host, tld and content type', () => {
    const role = (overrides: Partial<EvidenceHit>, type: Parameters<typeof derivedRole>[1] = 'original') => derivedRole(hit('a:0', overrides), type).role;
    expect(role({ host: 'www.nasa.gov', tld: 'gov' })).toBe('official');
    // Registrable domains as ingest records them (the public suffix list: ac.uk and gov.uk are suffixes).
    expect(role({ host: 'www.ox.ac.uk', registrable_domain: 'ox.ac.uk', tld: 'uk' })).toBe('official');
    expect(role({ host: 'www.gov.uk', registrable_domain: 'www.gov.uk', tld: 'uk' })).toBe('official');
    expect(role({ host: 'curia.europa.eu', tld: 'eu' })).toBe('official');
    expect(role({ host: 'www.who.int', tld: 'int' })).toBe('official');
    expect(role({ host: 'github.com', tld: 'com' })).toBe('primary');
    expect(role({ host: 'arxiv.org', tld: 'org' })).toBe('primary');
    expect(role({ host: 'docs.python.org', tld: 'org' })).toBe('primary');
    expect(role({ host: 'www.acme.example', content_type: 'academic' })).toBe('primary');
    expect(role({ host: 'www.newsreleasewire.com', content_type: 'news' }, 'press_release')).toBe('primary');
    expect(role({ host: 'www.metrotribune.com', content_type: 'news' })).toBe('secondary');
    expect(role({ host: 'www.reddit.com' })).toBe('ugc');
    expect(role({ host: 'www.askanything.net', content_type: 'qa' })).toBe('ugc');
    expect(role({ host: 'www.newsroundup.io', content_type: 'news' }, 'republish')).toBe('aggregator');
    // Nothing says anything: the low-confidence fallback (a page about its subject), not unknown.
    expect(derivedRole(hit('a:0', { host: 'www.mystery.example' }), 'original')).toEqual({ role: 'secondary', confidence: 0.16 });
  });

  it('derives the role ingest records: one classifier for both', () => {
    // A video page on a host nothing else says anything about: ugc (video sharing is social),
    // as ingest stores it; the evidence layer's own fallback used to call it secondary.
    const video = hit('a:0', { host: 'www.zoomly.example', content_type: 'video' });
    expect(roleOf(video, 'original')).toEqual({ role: 'ugc', confidence: 0.29, stored: false });
    const page = { host: 'www.zoomly.example', registrableDomain: 'zoomly.example', publicSuffix: 'example', path: '/a', contentType: 'video', pageOrigin: 'none' } as const;
    expect(derivedRole(video, 'original')).toEqual(deriveSourceRole(page));
    // The URL path and a wire origin vote as they do at ingest.
    expect(derivedRole(hit('b:0', { host: 'forum.metro.example', url: 'https://forum.metro.example/questions/1' }), 'original')).toEqual({ role: 'ugc', confidence: 0.82 });
    // A newspaper's name and a wire origin agree.
    expect(derivedRole(hit('c:0', { host: 'www.daily.example' }), 'wire')).toEqual({ role: 'secondary', confidence: 0.75 });
  });
});

describe('origins: the story walk', () => {
  const wire = hit('wire:0', { story_id: 'w', snippet: WIRE, owner: 'Associated Wire', published_at: NOW - 10 * DAY, origin_type: 'wire' });
  const carriers = [1, 2, 3, 4, 5].map((index) =>
    hit(`carry${index}:0`, { story_id: 'w', snippet: WIRE, published_at: NOW - 10 * DAY + index * HOUR, origin_type: 'wire' }),
  );
  const aggregator = hit('agg:0', { story_id: 'w', snippet: `${WIRE} Source: Associated Wire.`, published_at: NOW - 9 * DAY, origin_type: 'republish' });

  it('a wire story carried by five outlets and copied by an aggregator is one origin with one owner', () => {
    const origins = buildOrigins([aggregator, ...carriers.reverse(), wire]);
    expect(origins).toHaveLength(1);
    const [origin] = origins;
    expect(origin.kind).toBe('wire');
    expect(origin.owner).toBe('Associated Wire');
    expect(origin.own.map((member) => member.hit.id)).toEqual(['wire:0', 'carry1:0', 'carry2:0', 'carry3:0', 'carry4:0', 'carry5:0']);
    expect(origin.republishes.map((member) => member.hit.id)).toEqual(['agg:0']);
    expect(origin.id).toBe(originId('w', 'Associated Wire'));
  });

  it('without recorded types, a later copy by another owner is a republish of the first publication', () => {
    const first = hit('first:0', { story_id: 's', published_at: NOW - 5 * DAY });
    const copy = hit('copy:0', { story_id: 's', published_at: NOW - 4 * DAY });
    const undatedCopy = hit('undated:0', { story_id: 's', fetched_at: NOW - 3 * DAY });
    const origins = buildOrigins([copy, undatedCopy, first]);
    expect(origins).toHaveLength(1);
    expect(origins[0].kind).toBe('original');
    expect(origins[0].own.map((member) => member.hit.id)).toEqual(['first:0']);
    expect(origins[0].republishes.map((member) => member.hit.id)).toEqual(['copy:0', 'undated:0']);
  });

  it('same story, same owner: one origin; an original recorded by ingest starts its own', () => {
    const one = hit('one:0', { story_id: 's', owner: 'Group', published_at: NOW - 3 * DAY });
    const two = hit('two:0', { story_id: 's', owner: 'Group', published_at: NOW - 2 * DAY });
    const independent = hit('indep:0', { story_id: 's', owner: 'Other', published_at: NOW - DAY, origin_type: 'original' });
    const origins = buildOrigins([two, independent, one]);
    expect(origins.map((origin) => [origin.owner, origin.own.map((member) => member.hit.id)])).toEqual([
      ['Group', ['one:0', 'two:0']],
      ['Other', ['indep:0']],
    ]);
  });

  it('a republish whose source is not in the set starts an origin of unknown kind', () => {
    const origins = buildOrigins([hit('agg:0', { story_id: 's', origin_type: 'republish' })]);
    expect(origins).toHaveLength(1);
    expect(origins[0].kind).toBe('unknown');
    expect(origins[0].confidence).toBeLessThanOrEqual(0.4);
  });
});

describe('ground', () => {
  const official = hit('nasa:0', { host: 'www.nasa.gov', tld: 'gov', story_id: 'n', snippet: 'NASA mapped lunar water ice deposits in craters.', score: 0.9, published_at: NOW - 12 * DAY });
  const report1 = hit('metro:0', { owner: 'Harbor', story_id: 'm', snippet: 'Lunar water ice could supply crews.', content_type: 'news', score: 0.8, published_at: NOW - 8 * DAY });
  const report2 = hit('coastal:0', { owner: 'Harbor', story_id: 'c', snippet: 'Mining lunar ice needs rovers.', content_type: 'news', score: 0.7, published_at: NOW - 7 * DAY });
  const wire = hit('wire:0', { story_id: 'w', snippet: WIRE, owner: 'Associated Wire', published_at: NOW - 10 * DAY, score: 1 });
  const copy = hit('copy:0', { story_id: 'w', snippet: WIRE, published_at: NOW - 9 * DAY, score: 1 });

  it('sufficient: scores independence by owner, never returns a republish, and fits the SPEC schema', () => {
    const body = groundResponse(groundTask(retrievalOf([wire, copy, official, report1, report2])));
    expect(GroundResponseSchema.safeParse(body).error).toBeUndefined();
    expect(body.status).toBe('sufficient');
    expect(body.evidence.map((item) => item.hit.id)).not.toContain('copy:0');
    const score = Object.fromEntries(body.evidence.map((item) => [item.hit.id, item.independence_score]));
    expect(score).toEqual({ 'wire:0': 1, 'nasa:0': 1, 'metro:0': 0.5, 'coastal:0': 0.5 });
    expect(body.coverage.independent_origins).toBe(3);
    expect(body.coverage.copies).toBe(5);
    expect(body.origins.find((origin) => origin.representative === 'wire:0')!.members).toEqual(['wire:0', 'copy:0']);
    // Items carry SPEC hits only: no internal provenance fields.
    expect(Object.keys(body.evidence[0].hit)).not.toContain('owner');
    expect(Object.keys(body.evidence[0].hit)).not.toContain('page_id');
  });

  it('is deterministic: the same hits in any order give the same answer', () => {
    const stable = (value: unknown) => JSON.parse(JSON.stringify(value), (key, field) => (key === 'elapsed_ms' ? undefined : field));
    const first = groundResponse(groundTask(retrievalOf([wire, copy, official, report1, report2])));
    const retrieval = retrievalOf([wire, copy, official, report1, report2]);
    retrieval.expansion.members = [...retrieval.expansion.members].reverse();
    expect(stable(groundResponse(groundTask(retrieval)))).toEqual(stable(first));
  });

  it('insufficient without the required role, and says what would help', () => {
    const body = groundResponse(groundTask(retrievalOf([report1, report2]), {}));
    expect(body.status).toBe('insufficient');
    expect(body.next_actions.map((action) => action.action)).toEqual(['corroborate', 'search', 'why_not', 'get_document', 'get_document']);
  });

  it('an official page that barely matches the objective neither fills the role slot nor makes the answer sufficient', () => {
    // Two independent outlets answer the question; the only official page matched one common word.
    const outlet1 = hit('outlet1:0', { owner: 'Outlet One', story_id: 'o1', snippet: 'WeWork is laying off 300 employees.', content_type: 'news', score: 1 });
    const outlet2 = hit('outlet2:0', { owner: 'Outlet Two', story_id: 'o2', snippet: 'WeWork layoffs reach its offices.', content_type: 'news', score: 0.9 });
    const catalogue = hit('catalogue:0', { host: 'www.catalogue.edu', tld: 'edu', story_id: 'k', snippet: 'Course catalogue: employees of the library.', score: 0.05 });
    const body = groundResponse(groundTask(retrievalOf([outlet1, outlet2, catalogue])));
    expect(body.status).toBe('insufficient');
    expect(body.coverage.known_gaps.some((gap) => gap.startsWith('no primary or official source among the evidence that bears on the objective'))).toBe(true);
    // Asked for the news role, the same material is sufficient.
    expect(groundResponse(groundTask(retrievalOf([outlet1, outlet2, catalogue]), { require_role: 'secondary' })).status).toBe('sufficient');
    // The same official page matching as well as the outlets fills the slot.
    const onTopic = { ...catalogue, score: 0.8 };
    expect(groundResponse(groundTask(retrievalOf([outlet1, outlet2, onTopic]))).status).toBe('sufficient');
  });

  it('an origin that shares only a common word of the objective does not count as a second source', () => {
    // Real passages (../shared/data/crawl/articles-dev.warc.gz: nypost.com, beachbodyondemand.com,
    // thehill.com, 2019; excerpts quoted for evaluation) with the relevance the hashing index gave
    // them for this objective: only one outlet reports the swap; a snack blog's "swap" and a court
    // report's "prison" are not a second source, though their relevance clears BEARING_RELEVANCE.
    const objective = 'Were Taliban prisoners flown to Qatar for a hostage swap?';
    const report = hit('nypost:0', { host: 'nypost.com', owner: 'nypost.com', story_id: 'np', content_type: 'news', score: 1, snippet: 'Two hostages — an American and an Australian — who had been held by the Taliban in Afghanistan since 2016 were released Tuesday in a prisoner swap for three high-ranking Taliban members.' });
    const doha = hit('nypost:1', { host: 'nypost.com', owner: 'nypost.com', story_id: 'np2', content_type: 'news', score: 0.83, snippet: 'The Taliban members were released in Doha, Qatar, where the group maintains a political office, according to a Taliban representative.' });
    const snacks = hit('snacks:0', { host: 'www.beachbodyondemand.com', owner: 'beachbodyondemand.com', story_id: 'bb', content_type: 'news', score: 0.26, snippet: 'So swap out a handful of regular potato chips for carrot sticks to scoop up your favorite dip and you’ll see that you’ll still get all the flavor.' });
    const court = hit('hill:0', { host: 'thehill.com', owner: 'thehill.com', story_id: 'th', content_type: 'news', score: 0.26, snippet: 'Patrick Carlineo Jr., 55, could face up to 10 years in prison and have to pay $250,000 after pleading guilty to threatening to assault and murder.' });
    const hits = [report, doha, snacks, court];
    const coverage = objectiveCoverage(objective, 'hybrid', hits);
    expect(coverage).not.toBeNull();
    const body = groundResponse(groundTask(retrievalOf(hits, { coverage }), { objective, require_role: 'secondary' }));
    expect(body.status).toBe('insufficient');
    expect(body.coverage.known_gaps).toContain('1 independent origin among the evidence; 2 needed (2 other owners returned bear on it only weakly)');
    const snackItem = body.evidence.find((item) => item.hit.id === 'snacks:0')!;
    expect(snackItem.reason).toMatch(/bears on it only weakly/);
    // A second outlet holding the story's own words counts.
    const second = hit('bbc:0', { host: 'www.bbc.com', owner: 'bbc.com', story_id: 'bbc', content_type: 'news', score: 0.5, snippet: 'Three Taliban prisoners were flown to Qatar in exchange for two hostages, a prisoner swap.' });
    const withSecond = [...hits, second];
    const answered = groundResponse(groundTask(retrievalOf(withSecond, { coverage: objectiveCoverage(objective, 'hybrid', withSecond) }), { objective, require_role: 'secondary' }));
    expect(answered.status).toBe('sufficient');
    // Not measured in semantic mode or with a model's vectors (paraphrases count there, as in support.ts).
    expect(objectiveCoverage(objective, 'semantic', hits)).toBeNull();
    expect(objectiveCoverage(objective, 'hybrid', hits, true)).toBeNull();
  });

  it('the smallest defensible set picks the required role and independent owners before filling by rank', () => {
    // Many Harbor stories rank above the official one: the official one and a second owner still make it in.
    const harbor = Array.from({ length: 10 }, (_, index) => hit(`h${index}:0`, { owner: 'Harbor', story_id: `h${index}`, snippet: `lunar ice report ${index}`, score: 2, content_type: 'news' }));
    const other = hit('other:0', { owner: 'Other', story_id: 'o', snippet: 'lunar ice other', score: 0.2, content_type: 'news' });
    const body = groundResponse(groundTask(retrievalOf([...harbor, official, other])));
    const ids = body.evidence.map((item) => item.hit.id);
    expect(ids).toContain('nasa:0');
    expect(ids).toContain('other:0');
    expect(ids).toHaveLength(8);
    expect(body.status).toBe('sufficient');
  });

  it('honours token_budget as a ceiling', () => {
    const long = 'lunar '.repeat(200);
    const hits = Array.from({ length: 6 }, (_, index) => hit(`l${index}:0`, { story_id: `l${index}`, snippet: long, score: 1 - index / 10 }));
    const budget = hitTokens(hits[0]) * 2 + 5;
    const body = groundResponse(groundTask(retrievalOf(hits), { token_budget: budget }));
    expect(body.evidence).toHaveLength(2);
    expect(body.budget.context_tokens).toBeLessThanOrEqual(budget);
    expect(body.coverage.known_gaps.some((gap) => gap.includes(`did not fit token_budget ${budget}`))).toBe(true);
  });

  it('partial takes precedence over every other status', () => {
    const retrieval = retrievalOf([]);
    retrieval.candidates = retrieved([], { partial: true, shardsDown: 1 });
    const body = groundResponse(groundTask(retrieval));
    expect(body.status).toBe('partial');
    expect(body.coverage).toMatchObject({ complete: false, partial: true });
    expect(body.coverage.not_searched.shards_down).toBe(1);
    expect(body.next_actions[0].action).toBe('retry');
  });

  it('empty when nothing matched', () => {
    const body = groundResponse(groundTask(retrievalOf([])));
    expect(body.status).toBe('empty');
  });

  it('stale: a window with nothing inside reports the older material; an old origin is not made fresh by a new copy', () => {
    const old = hit('old:0', { story_id: 'x', published_at: NOW - 100 * DAY });
    const freshCopy = hit('copy:0', { story_id: 'x', published_at: NOW - HOUR });
    const retrieval = retrievalOf([freshCopy, old]);
    retrieval.outside = { publishedFrom: NOW - 7 * DAY, older: retrieved([old], { total: 1 }), newestOlder: old, undated: 2 };
    const body = groundResponse(groundTask(retrieval, { max_age: '7d' }));
    expect(body.status).toBe('stale');
    expect(body.stale_evidence).toMatchObject({ max_age: 7 * DAY, older_passages: 1, undated_passages: 2, newest_published_at: NOW - 100 * DAY, suggested_max_age: '101d' });
    expect(body.coverage.freshness).toMatchObject({ undated_excluded: true, within_max_age: false });
    expect(body.next_actions).toEqual([expect.objectContaining({ action: 'widen_max_age', target: '101d' })]);
  });

  it('truncated expansion: complete false, not partial', () => {
    const retrieval = retrievalOf([official, report1]);
    retrieval.expansion = { ...retrieval.expansion, truncated: true, expandedStoryIds: [], notExpandedStoryIds: ['n', 'm'] };
    const body = groundResponse(groundTask(retrieval, { latency_budget_ms: 5 }));
    expect(body.coverage).toMatchObject({ complete: false, partial: false });
    expect(body.coverage.not_searched).toMatchObject({ story_expansion_truncated: true, stories_not_expanded: 2 });
    expect(body.next_actions[0]).toMatchObject({ action: 'retry', target: 'latency_budget_ms=1000' });
  });
});

describe('lexical support', () => {
  const supports = (objective: string, title: string, snippet: string) => supportedHits(objective, 'keyword', [{ title, snippet }]).dropped === 0;

  it('needs a shared content word; excluded terms and stop words do not count', () => {
    expect([...objectiveTerms('the lunar ice -crater')].sort()).toEqual(['ice', 'lunar']);
    expect(supports('the lunar ice -crater', 'Moon', 'Lunar soil')).toBe(true);
    expect(supports('the lunar ice -crater', 'Crater', 'the crater of it')).toBe(false);
    expect(supports('the of', '', 'anything')).toBe(true);
  });

  // The engine's analyser decides (Snowball stems, ASCII folding), as it did for the search that
  // found the passage; the light plural/-ing/-ed fold used before missed these.
  it('matches words as the index does: inflections and accents', () => {
    expect(supports('running shoes', 'Marathon', 'She runs every day')).toBe(true);
    expect(supports('national parks', 'Travel', 'The nation protects its wild land')).toBe(true);
    expect(supports('café culture', 'Paris', 'A cafe on every corner')).toBe(true);
    expect(supports('running shoes', 'Marathon', 'She walks every day')).toBe(false);
  });

  it('keeps every hit in semantic mode, and in hybrid when a model made the vectors', () => {
    const hits = [{ title: 'Bicycle', snippet: 'Fixing a punctured tire' }];
    expect(supportedHits('flat tyre', 'semantic', hits).dropped).toBe(0);
    expect(supportedHits('flat tyre', 'hybrid', hits, true).dropped).toBe(0);
    expect(supportedHits('flat tyre', 'hybrid', hits).dropped).toBe(1);
  });
});

describe('near-paraphrases (corroborate)', () => {
  // The overlap counts the seed's content words as the index matches them, as lexical support does.
  it('shares content words as the index does: inflections and accents', () => {
    const seed = hit('seed:0', { story_id: 's', snippet: 'Rangers studied melting glaciers near the café' });
    const hits = [
      hit('same:0', { story_id: 's', snippet: 'Rangers studied melting glaciers near the café' }),
      hit('other:0', { story_id: 'o', title: 'Report', snippet: 'A ranger studies how glaciers melt, seen from the cafe' }),
      hit('far:0', { story_id: 'f', title: 'Spring', snippet: 'Glaciers in spring' }),
    ];
    const search = selectParaphrases(seed, 'ranger studi melt glacier near café', hits);
    expect(search).toMatchObject({ seedTerms: 6, candidates: 2, cut: 0 });
    expect(search.kept.map((paraphrase) => [paraphrase.storyId, paraphrase.shared, paraphrase.overlap])).toEqual([['o', 5, 0.8333]]);
  });
});

describe('changes', () => {
  const old = hit('old:0', { story_id: 'o', owner: 'A', fetched_at: NOW - 10 * DAY, snippet: 'lunar ice old', content_type: 'news' });
  const fresh = hit('fresh:0', { story_id: 'f', owner: 'B', host: 'www.nasa.gov', tld: 'gov', fetched_at: NOW - HOUR, snippet: 'lunar ice fresh' });
  const lateCopy = hit('late:0', { story_id: 'o', owner: 'C', fetched_at: NOW - HOUR, snippet: 'lunar ice old' });

  function task(since: number, afterHits: EvidenceHit[], beforeHits: EvidenceHit[]): ChangesTask {
    return {
      params: parseParams(ChangesParamsSchema, { objective: 'lunar ice', since: String(since) }),
      after: retrievalOf(afterHits),
      before: retrievalOf(beforeHits),
      knownUrls: null,
      now: NOW,
      startedAtMs: Date.now(),
      shardsConfigured: 2,
      credits: 10,
    };
  }

  it('new evidence and gained origins are what was crawled after since; a new republish is neither', () => {
    const since = NOW - DAY;
    const body = changesResponse(task(since, [old, lateCopy, fresh], [old]));
    expect(ChangesResponseSchema.safeParse(body).error).toBeUndefined();
    expect(body.status).toBe('changed');
    expect(body.new_evidence.map((item) => item.hit.id)).toEqual(['fresh:0']);
    expect(body.origins_gained.map((origin) => origin.representative)).toEqual(['fresh:0']);
    expect(body.roles_gained).toEqual(['official']);
    expect(body.independent_origins).toEqual({ before: 1, after: 2 });
  });

  it('unchanged when the two sides hold the same evidence', () => {
    const body = changesResponse(task(NOW - 5 * DAY, [old], [old]));
    expect(body.status).toBe('unchanged');
    expect(body.next_actions).toEqual([]);
  });
});

describe('context pack', () => {
  it('one passage per story, ranked by trust-weighted relevance, under the budget', () => {
    const trusted = hit('gov:0', { story_id: 'g', host: 'www.nasa.gov', tld: 'gov', host_rank: 0.95, score: 0.9, snippet: 'lunar ice from the agency' });
    const corroborated = hit('wide:0', { story_id: 'w', host_rank: 0.5, score: 0.9, group_size: 4, independent_sources: 4, snippet: 'lunar ice widely carried' });
    const weak = hit('weak:0', { story_id: 'k', host_rank: 0.1, score: 1, snippet: 'lunar ice on a weak host' });
    const duplicate = hit('dup:0', { story_id: 'g', host_rank: 0.95, score: 0.8, snippet: 'lunar ice from the agency' });
    const unrelated = hit('zz:0', { story_id: 'z', host_rank: 0.9, score: 0.5, snippet: 'sourdough bread' });
    const params = parseParams(ContextParamsSchema, { q: 'lunar ice' });
    const pack = contextPack({ params, vectorsMatch: false, candidates: retrieved([weak, trusted, corroborated, duplicate, unrelated]) });
    // 0.5 x relevance + 0.3 x trust + 0.2 x corroboration: four passages outweigh the trust gap.
    expect(pack.items.map((item) => item.hit.id)).toEqual(['wide:0', 'gov:0', 'weak:0']);
    expect(pack.items[0].reason).toMatch(/corroborated: its story is carried by 4 independent hosts/);
    expect(pack.estimated_tokens).toBe(pack.items.reduce((sum, item) => sum + hitTokens(item.hit), 0));
    const tight = contextPack({ params: { ...params, budget: hitTokens(trusted) }, vectorsMatch: false, candidates: retrieved([weak, trusted, corroborated]) });
    expect(tight.items.map((item) => item.hit.id)).toEqual(['gov:0']);
  });

  it('does not count a story\'s copies on one host (a site\'s teasers of its own article) as corroboration', () => {
    const trusted = hit('gov:0', { story_id: 'g', host: 'www.nasa.gov', tld: 'gov', host_rank: 0.95, score: 0.9, snippet: 'lunar ice from the agency' });
    const teasers = hit('teaser:0', { story_id: 't', host_rank: 0.5, score: 0.9, group_size: 6, independent_sources: 1, snippet: 'lunar ice teased on every page of one site' });
    const params = parseParams(ContextParamsSchema, { q: 'lunar ice' });
    const pack = contextPack({ params, vectorsMatch: false, candidates: retrieved([teasers, trusted]) });
    expect(pack.items.map((item) => item.hit.id)).toEqual(['gov:0', 'teaser:0']);
    expect(pack.items[1].reason).toMatch(/no other host carries its story/);
  });
});

describe('token estimator', () => {
  it('is ceil(characters / 4) of title, URL and snippet', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcde')).toBe(2);
    expect(hitTokens({ title: 'abcd', url: 'abcdefgh', snippet: 'a' })).toBe(1 + 2 + 1);
  });
});
