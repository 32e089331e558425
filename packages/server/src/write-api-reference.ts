/**
 * `npm run docs:api`: write docs/API.md, the API reference generated from the capability catalog
 * (the same document GET /openapi.json serves). `--check` exits 1 when the file is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApiReference } from './discovery/api-reference.js';

const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'API.md');
const reference = buildApiReference();

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // missing: out of date
  }
  if (current !== reference) {
    process.stderr.write(`${file} is out of date: run npm run docs:api\n`);
    process.exitCode = 1;
  }
} else {
  writeFileSync(file, reference);
  process.stdout.write(`wrote ${file}\n`);
}
