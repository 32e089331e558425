/**
 * `npm run bench:signals`: every derived page signal scored on the labelled development data in
 * SIGNALS_DATA (default ../shared/data/signals), each beside a trivial baseline or a peer run
 * in the same process, one section per signal (bench/src/signals/*.ts); this entry only lists
 * the sections and prints their tables. Sections are picked by name, as arguments
 * (`npm run bench:signals -- vertical safety`) or in `SIGNALS` (comma-separated); default all.
 * The report goes to stdout and bench/out/signals.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentTypeSection } from './signals/content-type.js';
import { ROOT } from './signals/halves.js';
import { hostRankSection } from './signals/host-rank.js';
import { publishedAtSection } from './signals/published-at.js';
import { qualitySection } from './signals/quality.js';
import { safetySection } from './signals/safety.js';
import type { SignalSection } from './signals/section.js';
import { sourceRoleSection } from './signals/source-role.js';
import { verticalSection } from './signals/vertical.js';

const SECTIONS: readonly SignalSection[] = [publishedAtSection, sourceRoleSection, contentTypeSection, verticalSection, safetySection, hostRankSection, qualitySection];

const wanted = [...process.argv.slice(2), ...(process.env.SIGNALS ?? '').split(',')].map((name) => name.trim()).filter((name) => name !== '');
const unknownNames = wanted.filter((name) => !SECTIONS.some((section) => section.name === name));
if (unknownNames.length > 0) {
  console.error(`bench:signals: no section named ${unknownNames.join(', ')}; sections: ${SECTIONS.map((section) => section.name).join(', ')}`);
  process.exit(2);
}
const report: string[] = ['# Signals bench', ''];
for (const section of SECTIONS) {
  if (wanted.length > 0 && !wanted.includes(section.name)) continue;
  const started = performance.now();
  const lines = await section.run();
  const block = [`## ${section.name}`, '', ...lines, '', `(${((performance.now() - started) / 1000).toFixed(1)} s)`, ''];
  console.log(block.join('\n'));
  report.push(...block);
}
mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'out', 'signals.md'), `${report.join('\n')}\n`);
