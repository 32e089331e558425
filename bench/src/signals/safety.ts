/**
 * safety: on the labelled hosts of `shared/data/signals/safety` (explicit true / false; the mixed
 * hosts, explicit null, left out), host precision, recall and F1, and the share of the hard
 * negatives (lingerie shops, sexual-health education) called explicit; then the recall on the
 * explicit page URLs. Each half by host apart (`safety-data.ts`): the rules were tuned and the
 * host-name model trained (`npm run train:safety`) on TUNE_HALF only.
 * Beside the baseline: a host-name keyword rule (`porn|xxx|sex|adult|nude|fuck|escort|cam|tube|milf`),
 * and the rules without the model (what ingest did before the model). With SAFETY_HOST_LIST set
 * (`npm run fetch:safety-list`), rows with the host list too; the other rows are without it.
 * The records carry no page text, so a host is judged from its name (and a page from its URL) as
 * an ingest of `http://host/` with an empty page would be.
 */
import { configuredHostList, deriveSafety, EXPLICIT_AT, urlPoints, type SortedHostList } from '@evidence/ingest';
import { backgroundNegatives, crawledHosts, crawledPages, isHardNegative, readSafetyRecords, safetyHalf, TUNE_HALF, type SafetyRecord } from './safety-data.js';
import { microsecondsPer, precisionRecallF1, table, type SignalSection } from './section.js';

const BASELINE = /porn|xxx|sex|adult|nude|fuck|escort|cam|tube|milf/;

function pathOf(url: string): string {
  const scheme = url.indexOf('://');
  const slash = url.indexOf('/', scheme < 0 ? 0 : scheme + 3);
  return slash < 0 ? '/' : url.slice(slash);
}

function ours(host: string, path = '/'): boolean {
  return deriveSafety({ host, path, title: '', text: '' }, undefined, null).value === 'explicit';
}

function withList(list: SortedHostList): (host: string, path?: string) => boolean {
  return (host, path = '/') => deriveSafety({ host, path, title: '', text: '' }, undefined, list).value === 'explicit';
}

function rulesOnly(host: string, path = '/'): boolean {
  return urlPoints(host, path).points >= EXPLICIT_AT;
}

function baseline(host: string, path = ''): boolean {
  return BASELINE.test(`${host}${path}`.toLowerCase());
}

export const safetySection: SignalSection = {
  name: 'safety',
  async run() {
    const records = readSafetyRecords();
    const list = configuredHostList();
    const systems: Array<readonly [string, (host: string, path?: string) => boolean]> = [
      ['host keyword rule (baseline)', baseline],
      ['ours: host, URL and text rules only', rulesOnly],
      ['ours: rules + host-name model', ours],
    ];
    if (list !== undefined) systems.push([`ours + host list (SAFETY_HOST_LIST, ${list.size} hosts)`, withList(list)]);
    const rows: Array<Array<string | number>> = [];
    for (const part of [TUNE_HALF, 1 - TUNE_HALF]) {
      const hosts = records.filter((record) => record.level === 'host' && record.explicit !== null && safetyHalf(record.host) === part);
      const hard = hosts.filter(isHardNegative);
      const pages = records.filter((record) => record.level === 'page' && record.url !== undefined && safetyHalf(record.host) === part);
      for (const [name, rule] of systems) {
        const counts = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
        for (const record of hosts) {
          const said = rule(record.host);
          if (said && record.explicit) counts.truePositives++;
          else if (said) counts.falsePositives++;
          else if (record.explicit) counts.falseNegatives++;
        }
        const { precision, recall, f1 } = precisionRecallF1(counts);
        const hardFalse = hard.filter((record) => rule(record.host)).length / Math.max(1, hard.length);
        const pageRecall = pages.filter((record) => rule(record.host, pathOf(record.url!))).length / Math.max(1, pages.length);
        rows.push([part === TUNE_HALF ? `tuned on (${hosts.length} hosts, ${hard.length} hard)` : `not tuned on (${hosts.length} hosts, ${hard.length} hard)`, name, precision, recall, f1, hardFalse, pageRecall]);
      }
    }
    // How much of each labelled group the list holds, per half: a list built from the labels' own source holds every adult host.
    const overlapRows =
      list === undefined
        ? []
        : [TUNE_HALF, 1 - TUNE_HALF].map((part) => {
            const inHalf = records.filter((record) => safetyHalf(record.host) === part);
            const share = (group: SafetyRecord[]): string => `${group.filter((record) => list.has(record.host)).length}/${group.length}`;
            const hostsOf = (level: 'host' | 'page'): SafetyRecord[] => inHalf.filter((record) => record.level === level);
            const pageHosts = [...new Map(hostsOf('page').map((record) => [record.host, record])).values()];
            return [
              part === TUNE_HALF ? 'tuned on' : 'not tuned on',
              share(hostsOf('host').filter((record) => record.explicit === true)),
              share(hostsOf('host').filter(isHardNegative)),
              share(hostsOf('host').filter((record) => record.explicit === false && !isHardNegative(record))),
              share(hostsOf('host').filter((record) => record.explicit === null)),
              share(pageHosts),
            ];
          });
    const trainedOn = new Set(backgroundNegatives(records));
    const ordinary = crawledHosts(records, 1 - TUNE_HALF).filter((host) => !trainedOn.has(host));
    const ordinaryRows = systems.map(([name, rule]) => {
      const called = ordinary.filter((host) => rule(host));
      return [name, called.length / Math.max(1, ordinary.length), called.slice(0, 8).join(' ') || '-'];
    });
    // The same half's real page URLs, read with their paths: news about sex crimes or nudity says so in its slug.
    const ordinaryPages = crawledPages(records, 1 - TUNE_HALF);
    const ordinaryPageRows = systems.map(([name, rule]) => {
      const called = ordinaryPages.filter((page) => rule(page.host, pathOf(page.url)));
      return [name, called.length / Math.max(1, ordinaryPages.length), called.slice(0, 4).map((page) => page.url).join(' ') || '-'];
    });
    const hostNames = records.map((record) => record.host);
    const cost = microsecondsPer(hostNames, (host) => deriveSafety({ host, path: '/', title: '', text: '' }, undefined, null));
    const listCost = list === undefined ? undefined : microsecondsPer(hostNames, (host) => list.has(host));
    return [
      ...table(['half', 'system', 'host precision', 'host recall', 'host F1', 'hard negatives called explicit', 'explicit page URLs found'], rows),
      '',
      ...(overlapRows.length === 0
        ? []
        : [
            'Hosts the list holds (by host or a parent domain), per labelled group:',
            '',
            ...table(['half', 'adult hosts', 'hard negatives', 'other non-adult hosts', 'mixed (explicit null)', 'hosts of explicit page URLs'], overlapRows),
            '',
          ]),
      `Ordinary hosts: the ${ordinary.length} hosts of real news and blog pages (the published_at set's half not trained on) called explicit:`,
      '',
      ...table(['system', 'share called explicit', 'which (first 8)'], ordinaryRows),
      '',
      `Their ${ordinaryPages.length} page URLs, read with the path, called explicit:`,
      '',
      ...table(['system', 'share called explicit', 'which (first 4)'], ordinaryPageRows),
      '',
      `Cost: ${cost.toFixed(1)} µs per host name, rules and model (the text rule adds a scan of at most 2,000 words)` +
        (listCost === undefined ? '.' : `; the host list ${listCost.toFixed(1)} µs more.`),
      list === undefined
        ? 'No host list: `npm run fetch:safety-list` and SAFETY_HOST_LIST=<the file it names> add the with-list rows. Its adult hosts share their source (UT1) with the labels: its figures measure a lookup, not a model.'
        : 'The host list shares its source (UT1 `adult`) with the labelled adult hosts: its rows measure a lookup of the labels\' own source, not what the service learned.',
    ];
  },
};
