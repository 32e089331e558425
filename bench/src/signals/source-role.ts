/**
 * source_role on hosts labelled by public lists (SIGNALS_DATA/source_role/hosts.jsonl): each
 * host is classified as ingest would classify a page at its root (`https://HOST/`) with nothing
 * else known (the labelled hosts come without page content, so no content type votes), and
 * scored by macro-F1 over official / primary / secondary / ugc and the share left `unknown`,
 * per half: `tune` (hosts whose SHA-256 has an even second byte; the host rules were written
 * looking at its errors and the host-name model is trained on it, so its figure is in-sample:
 * `npm run train:source-role` prints the cross-validated one) and `check` (never looked at). MBFC entries the data marks
 * `role_ambiguous` (advocacy organisations, journals) are scored apart. Beside it: always
 * `secondary` (the majority) and the public suffix alone (official or unknown). Then how well
 * role_confidence ranks: accuracy per confidence band. Last, whole pages: the real news and
 * blog articles of `SIGNALS_DATA/../crawl/articles-dev.warc.gz` through ingest's own page
 * path (crawl page, record, passages), where the page's content type and shape vote too, and
 * the 22 research-site pages of `sample-0000.warc.gz` (researchers' own homepages).
 */

const NEWS_WARC = join(SIGNALS_DATA, '..', 'crawl', 'articles-dev.warc.gz');
/** The 22 research-site pages of the shared crawl: a research institute's site and its researchers' own homepages. */
const RESEARCH_WARC = join(SIGNALS_DATA, '..', 'crawl', 'sample-0000.warc.gz');

/** Roles ingest gives the real pages of a crawl file, and how many pages each page-shape vote (source-role-page.ts) and press-release origin fired on. */
async function crawlPageRoles(warc: string): Promise<{ roles: Map<string, number>; shapes: Map<string, number>; shapeMicros: number } | undefined> {
  if (!existsSync(warc)) return undefined;
  const roles = new Map<string, number>();
  const shapes = new Map<string, number>();
  const owners = new OwnersTable();
  let shapeTime = 0;
  let pages = 0;
  for await (const item of readWarcItems(warc, 'gzip')) {
    if (item.kind !== 'record') continue;
    const page = crawlItemOf(item);
    if (page.kind !== 'page') continue;
    const record = parseRecordLine(JSON.stringify(page.record));
    if (record.kind !== 'content') continue;
    const [passage] = buildPassages(record, pageIdFor(record.url, record.text), 'en');
    const role = passage?.sourceRole ?? 'unknown';
    roles.set(role, (roles.get(role) ?? 0) + 1);
    const fields = deriveHostFields(record.hostname);
    const firstLabel = hostNameParts(fields.host, fields.registrableDomain, publicSuffixOf(fields)).subLabels[0] ?? '';
    const started = performance.now();
    const votes = pageShapeVotes({ title: record.title, text: record.text, path: urlPath(record.url), firstLabel });
    const origin = detectPageOrigin(record.text, fields.registrableDomain, undefined, owners, record.title);
    shapeTime += performance.now() - started;
    pages++;
    for (const vote of votes) shapes.set(vote.reason ?? vote.role, (shapes.get(vote.reason ?? vote.role) ?? 0) + 1);
    if (origin === 'press_release') shapes.set('press release (origin)', (shapes.get('press release (origin)') ?? 0) + 1);
  }
  return { roles, shapes, shapeMicros: (shapeTime * 1000) / Math.max(1, pages) };
}

function countsLine(counts: ReadonlyMap<string, number>): string {
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([key, count]) => `${key} ${count}`).join(', ') || 'none';
}
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildPassages, crawlItemOf, deriveHostFields, detectPageOrigin, OwnersTable, pageIdFor, parseRecordLine, readWarcItems } from '@evidence/ingest';
import { deriveSourceRole, hostNameParts, pageShapeVotes, publicSuffixOf, sourceRoleVotes, urlPath, FALLBACK_VOTE, type RoleInput } from '@evidence/schemas';
import { halfOf, macroF1, readJsonl, SIGNALS_DATA, type Half } from './halves.js';
import { percent, table, type SignalSection } from './section.js';

interface LabelledHost {
  host: string;
  role: string;
  source_list: string;
  labels?: { role_ambiguous?: boolean };
}

const ROLES = ['official', 'primary', 'secondary', 'ugc'] as const;
const OFFICIAL_SUFFIX = /^(?:gov|mil|edu|int)$|^(?:gov|gouv|gob|go|govt|gv|gc|mil|edu|ac)\./;

function inputFor(host: string): RoleInput {
  const fields = deriveHostFields(host);
  return { host: fields.host, registrableDomain: fields.registrableDomain, publicSuffix: publicSuffixOf(fields), path: '/', pageOrigin: 'none' };
}

export const sourceRoleSection: SignalSection = {
  name: 'source_role',
  async run() {
    const hosts = readJsonl<LabelledHost>('source_role/hosts.jsonl');
    if (hosts === undefined) return ['skipped: no source_role/hosts.jsonl'];
    const lines: string[] = [];
    const rows: Array<Array<string | number>> = [];
    const bands = [0, 0.25, 0.5, 0.75, 1.01];
    const bandCounts = bands.slice(1).map(() => ({ hosts: 0, right: 0 }));
    const fallback = { used: 0, secondary: 0 };
    const perList = new Map<string, { hosts: number; right: number }>();
    const started = performance.now();
    let classified = 0;
    for (const half of ['tune', 'check'] as const satisfies readonly Half[]) {
      const scored = hosts.filter((host) => halfOf(host.host, 1) === half && host.labels?.role_ambiguous !== true);
      const ours: Array<[string, string]> = [];
      const suffixOnly: Array<[string, string]> = [];
      let unknown = 0;
      for (const labelled of scored) {
        const input = inputFor(labelled.host);
        const decision = deriveSourceRole(input);
        classified++;
        ours.push([labelled.role, decision.role]);
        if (decision.role === 'unknown') unknown++;
        suffixOnly.push([labelled.role, OFFICIAL_SUFFIX.test(input.publicSuffix) ? 'official' : 'unknown']);
        if (half === 'check') {
          const band = bands.findIndex((edge, index) => decision.confidence >= edge && decision.confidence < bands[index + 1]);
          if (band >= 0 && band < bandCounts.length) {
            bandCounts[band].hosts++;
            if (decision.role === labelled.role) bandCounts[band].right++;
          }
          const list = perList.get(labelled.source_list) ?? { hosts: 0, right: 0 };
          list.hosts++;
          if (decision.role === labelled.role) list.right++;
          perList.set(labelled.source_list, list);
        }
        const votes = sourceRoleVotes(input);
        if (half === 'tune' && votes.length === 1 && votes[0] === FALLBACK_VOTE) {
          fallback.used++;
          if (labelled.role === 'secondary') fallback.secondary++;
        }
      }
      const score = macroF1(ours, ROLES);
      const always = macroF1(scored.map((host) => [host.role, 'secondary']), ROLES);
      const suffix = macroF1(suffixOnly, ROLES);
      rows.push(['ours (host only)', half, scored.length, percent(score.macro), ...ROLES.map((role) => percent(score.perLabel[role])), percent(unknown / scored.length)]);
      rows.push(['baseline: always secondary', half, scored.length, percent(always.macro), ...ROLES.map((role) => percent(always.perLabel[role])), '0.000']);
      rows.push(['baseline: public suffix only', half, scored.length, percent(suffix.macro), ...ROLES.map((role) => percent(suffix.perLabel[role])), percent(suffixOnly.filter(([, role]) => role === 'unknown').length / scored.length)]);
      const ambiguous = hosts.filter((host) => halfOf(host.host, 1) === half && host.labels?.role_ambiguous === true);
      const ambiguousRight = ambiguous.filter((host) => deriveSourceRole(inputFor(host.host)).role === host.role).length;
      lines.push(`${half}: ${ambiguous.length} role_ambiguous MBFC hosts (labelled primary/official) scored apart: ${ambiguousRight} agree with the label.`);
    }
    const elapsed = performance.now() - started;
    const news = await crawlPageRoles(NEWS_WARC);
    const research = await crawlPageRoles(RESEARCH_WARC);
    const newsTotal = news === undefined ? 0 : [...news.roles.values()].reduce((sum, count) => sum + count, 0);
    const newsLine =
      news === undefined
        ? `Whole pages: skipped (no ${NEWS_WARC}).`
        : `Whole pages through ingest: the ${newsTotal} real news and blog articles of crawl/articles-dev.warc.gz get ${countsLine(news.roles)} (secondary ${percent((news.roles.get('secondary') ?? 0) / Math.max(1, newsTotal))}; the issue measured 95% unknown on news articles before). Page shapes and press-release origin fired on: ${countsLine(news.shapes)} (${news.shapeMicros.toFixed(0)} µs per page for both).`;
    const researchTotal = research === undefined ? 0 : [...research.roles.values()].reduce((sum, count) => sum + count, 0);
    const researchLine =
      research === undefined
        ? `Research-site pages: skipped (no ${RESEARCH_WARC}).`
        : `The ${researchTotal} research-site pages of crawl/sample-0000.warc.gz (an institute's team page, researchers' own homepages on their own domains, github.io and university hosts; a reader says primary or official for all but one wordpress.com blog) get ${countsLine(research.roles)}. Page shapes fired on: ${countsLine(research.shapes)}.`;
    return [
      'Host only, as a page at the host\'s root with no content type: the page-level votes (content type, schema.org type, URL path, press-release and wire markers) are not in this figure.',
      'The host-name model (source-role-model.ts) is trained on the tune half, so the tune rows are in-sample; `npm run train:source-role` prints its cross-validated and leave-one-list-out figures. The check half was not used to train or choose anything.',
      '',
      ...table(['classifier', 'half', 'hosts', 'macro-F1', ...ROLES.map((role) => `F1 ${role}`), 'unknown'], rows),
      '',
      ...lines,
      `The fallback (no rule vote and the host-name model unsure: secondary at 0.16) was used for ${fallback.used} tune-half hosts, ${percent(fallback.secondary / Math.max(1, fallback.used))} of them labelled secondary.`,
      '',
      'role_confidence, check half: accuracy per confidence band',
      '',
      ...table(['confidence', 'hosts', 'right'], bandCounts.map((band, index) => [`${bands[index].toFixed(2)}-${Math.min(1, bands[index + 1]).toFixed(2)}`, band.hosts, percent(band.right / Math.max(1, band.hosts))])),
      '',
      'Check half by source list (share right):',
      '',
      ...table(['list', 'hosts', 'right'], [...perList.entries()].sort().map(([list, entry]) => [list, entry.hosts, percent(entry.right / entry.hosts)])),
      '',
      `Cost: ${((elapsed * 1000) / Math.max(1, classified)).toFixed(1)} µs per host (first sight of a host; ingest caches host votes).`,
      '',
      newsLine,
      '',
      researchLine,
    ];
  },
};
