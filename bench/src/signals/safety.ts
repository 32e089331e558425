/**
 * safety: on the labelled hosts of `shared/data/signals/safety` (explicit true / false; the mixed
 * hosts, explicit null, left out), host precision, recall and F1, and the share of the hard
 * negatives (lingerie shops, sexual-health education) called explicit; then the recall on the
 * explicit page URLs. Each half by host apart: the rules were tuned looking at TUNE_HALF only.
 * Beside the baseline: a host-name keyword rule (`porn|xxx|sex|adult|nude|fuck|escort|cam|tube|milf`).
 * The records carry no page text, so a host is judged from its name (and a page from its URL) as
 * an ingest of `http://host/` with an empty page would be.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { deriveSafety } from '@evidence/ingest';
import { signalsDataDir } from './data-dir.js';
import { microsecondsPer, precisionRecallF1, table, type SignalSection } from './section.js';

export const TUNE_HALF = 1;
const BASELINE = /porn|xxx|sex|adult|nude|fuck|escort|cam|tube|milf/;

interface SafetyRecord {
  host: string;
  explicit: boolean | null;
  level: 'host' | 'page';
  url?: string;
  hard_case?: string;
}

function half(host: string): number {
  return createHash('sha256').update(host).digest()[1] % 2;
}

function pathOf(url: string): string {
  const scheme = url.indexOf('://');
  const slash = url.indexOf('/', scheme < 0 ? 0 : scheme + 3);
  return slash < 0 ? '/' : url.slice(slash);
}

function ours(host: string, path = '/'): boolean {
  return deriveSafety({ host, path, title: '', text: '' }).value === 'explicit';
}

function baseline(host: string, path = ''): boolean {
  return BASELINE.test(`${host}${path}`.toLowerCase());
}

export const safetySection: SignalSection = {
  name: 'safety',
  async run() {
    const records = readFileSync(`${signalsDataDir()}/safety/records.jsonl`, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as SafetyRecord);
    const rows: Array<Array<string | number>> = [];
    for (const part of [TUNE_HALF, 1 - TUNE_HALF]) {
      const hosts = records.filter((record) => record.level === 'host' && record.explicit !== null && half(record.host) === part);
      const hard = hosts.filter((record) => record.hard_case === 'lingerie' || record.hard_case === 'sexual_education');
      const pages = records.filter((record) => record.level === 'page' && record.url !== undefined && half(record.host) === part);
      for (const [name, rule] of [
        ['host keyword rule (baseline)', baseline],
        ['ours: host, URL and text rules', ours],
      ] as const) {
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
        rows.push([part === TUNE_HALF ? `tuned on (${hosts.length} hosts)` : `not tuned on (${hosts.length} hosts)`, name, precision, recall, f1, hardFalse, pageRecall]);
      }
    }
    const hostNames = records.map((record) => record.host);
    const cost = microsecondsPer(hostNames, (host) => deriveSafety({ host, path: '/', title: '', text: '' }));
    return [
      ...table(['half', 'system', 'host precision', 'host recall', 'host F1', 'hard negatives called explicit', 'explicit page URLs found'], rows),
      '',
      `Cost: ${cost.toFixed(1)} µs per host name (the text rule adds a scan of at most 2,000 words).`,
    ];
  },
};
