/**
 * host_rank: how well it separates news hosts of high from low factuality (MBFC's factual
 * reporting in `source_role/hosts.jsonl`: high against low, mixed left out) and reliable from
 * unreliable sources (Wikipedia's perennial sources in `host_trust/`: 1 against -1 and -2), as
 * the ROC AUC of host_rank; beside a constant (AUC 0.5). The labels are read here only: nothing
 * of them is shipped. The link graph is the one crawl ingest's pass 1 builds from the real WARC
 * files in `shared/data` (`crawl/`, `hidden-text/`), so the graph part reaches only the labelled
 * hosts those pages link to; the rest get the name priors alone. Nothing here was tuned on these
 * labels (the priors are the documented tables of `host-rank.ts`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectLinks, deriveHostFields, deriveHostRank, HostGraph, rankPercentiles } from '@evidence/ingest';
import { publicSuffixOf } from '@evidence/schemas';
import { signalsDataDir } from './data-dir.js';
import { microsecondsPer, rocAuc, table, type SignalSection } from './section.js';

interface Labelled {
  host: string;
  positive: boolean;
}

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

function mbfcNewsHosts(): Labelled[] {
  const rows = readJsonl<{ host: string; role: string; trust?: { mbfc_factuality_coarse?: string } }>(join(signalsDataDir(), 'source_role/hosts.jsonl'));
  return rows
    .filter((row) => row.role === 'secondary' && (row.trust?.mbfc_factuality_coarse === 'high' || row.trust?.mbfc_factuality_coarse === 'low'))
    .map((row) => ({ host: row.host, positive: row.trust?.mbfc_factuality_coarse === 'high' }));
}

function perennialSources(): Labelled[] {
  const rows = readJsonl<{ host: string; wp_rsp: number }>(join(signalsDataDir(), 'host_trust/wikipedia_rsp.jsonl'));
  return rows.filter((row) => row.wp_rsp !== 0).map((row) => ({ host: row.host, positive: row.wp_rsp === 1 }));
}

function crawlFiles(): string[] {
  const root = join(signalsDataDir(), '..');
  return [join(root, 'crawl/sample-0000.warc.gz'), join(root, 'crawl/articles-dev.warc.gz'), join(root, 'hidden-text/pages.warc.gz')].filter((file) => existsSync(file));
}

export const hostRankSection: SignalSection = {
  name: 'host_rank',
  async run() {
    const graph = HostGraph.inMemory();
    const files = crawlFiles();
    await collectLinks(files, graph);
    const standings = rankPercentiles(graph.signals());
    const rankOf = (host: string, withGraph: boolean): number => {
      const fields = deriveHostFields(host);
      const input = { host: fields.host, registrableDomain: fields.registrableDomain, publicSuffix: publicSuffixOf(fields), tld: fields.tld };
      const standing = withGraph ? (standings.get(fields.host) ?? standings.get(`www.${fields.host}`)) : undefined;
      return deriveHostRank(input, standing).value;
    };
    const rows: Array<Array<string | number>> = [];
    for (const [name, labelled] of [
      ['MBFC news hosts, high vs low factuality', mbfcNewsHosts()],
      ['Wikipedia perennial sources, reliable vs unreliable', perennialSources()],
    ] as const) {
      const inGraph = labelled.filter((item) => standings.has(item.host) || standings.has(`www.${item.host}`));
      const positives = labelled.filter((item) => item.positive).length;
      rows.push([
        `${name} (${positives} / ${labelled.length - positives})`,
        0.5,
        rocAuc(labelled.map((item) => ({ score: rankOf(item.host, false), positive: item.positive }))),
        rocAuc(labelled.map((item) => ({ score: rankOf(item.host, true), positive: item.positive }))),
        `${inGraph.length}`,
        inGraph.length >= 4 ? rocAuc(inGraph.map((item) => ({ score: rankOf(item.host, true), positive: item.positive }))) : 'n/a',
      ]);
    }
    const hosts = mbfcNewsHosts().map((item) => item.host);
    const cost = microsecondsPer(hosts, (host) => rankOf(host, true));
    return [
      ...table(['labelled hosts (positive / negative)', 'constant (baseline)', 'AUC, name priors only', 'AUC, priors + crawl link graph', 'labelled hosts in the graph', 'AUC on those'], rows),
      '',
      `Link graph: ${graph.hosts} hosts, ${graph.edges} host links from ${files.length} WARC files. Cost: ${cost.toFixed(2)} µs per host.`,
    ];
  },
};
