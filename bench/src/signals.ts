/**
 * `npm run bench:signals`: every derived page signal scored on the labelled development data in
 * SIGNALS_DATA (default ../shared/data/signals), each beside a trivial baseline or a peer run
 * in the same process, one section per signal (bench/src/signals/*.ts). `SIGNALS` picks sections
 * by name (comma-separated; default all). The report goes to stdout and bench/out/signals.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './signals/halves.js';
import { contentTypeSection } from './signals/content-type.js';
import { publishedAtSection } from './signals/published-at.js';
import { sourceRoleSection } from './signals/source-role.js';
import type { SignalSection } from './signals/section.js';

const SECTIONS: readonly SignalSection[] = [publishedAtSection, sourceRoleSection, contentTypeSection];

const wanted = (process.env.SIGNALS ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
const unknownNames = wanted.filter((name) => !SECTIONS.some((section) => section.name === name));
if (unknownNames.length > 0) {
  console.error(`SIGNALS: no section named ${unknownNames.join(', ')}; sections: ${SECTIONS.map((section) => section.name).join(', ')}`);
  process.exit(2);
}
const report: string[] = ['# Signals bench', ''];
for (const section of SECTIONS) {
  if (wanted.length > 0 && !wanted.includes(section.name)) continue;
  const started = Date.now();
  const lines = await section.run();
  const block = [`## ${section.name}`, '', ...lines, '', `(${((Date.now() - started) / 1000).toFixed(1)} s)`, ''];
  console.log(block.join('\n'));
  report.push(...block);
}
mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'out', 'signals.md'), `${report.join('\n')}\n`);
