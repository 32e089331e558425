/**
 * `npm run bench:signals`: each derived page signal scored on the labelled development halves of
 * `shared/data/signals` (SIGNALS_DATA_DIR), beside a trivial baseline in the same run. One file
 * per signal under `signals/`; this entry only lists the sections and prints their tables.
 * `npm run bench:signals -- vertical safety` runs only the named sections.
 */
import { hostRankSection } from './signals/host-rank.js';
import { qualitySection } from './signals/quality.js';
import { safetySection } from './signals/safety.js';
import type { SignalSection } from './signals/section.js';
import { verticalSection } from './signals/vertical.js';

const SECTIONS: SignalSection[] = [verticalSection, safetySection, hostRankSection, qualitySection];

const wanted = process.argv.slice(2);
for (const section of SECTIONS) {
  if (wanted.length > 0 && !wanted.includes(section.name)) continue;
  const started = performance.now();
  const lines = await section.run();
  process.stdout.write(`\n## ${section.name}\n\n${lines.join('\n')}\n\n(${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
}
