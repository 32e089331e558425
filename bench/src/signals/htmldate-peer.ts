/**
 * htmldate (PyPI, Apache-2.0) as the published_at peer: installed into a venv under bench/out
 * when missing (`HTMLDATE_VERSION`, default 1.11.0), then run once over every page in both its
 * extensive and fast modes with `original_date=True`, as its own evaluation does. Returns
 * undefined, with the reason, when Python or the package cannot be had.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './halves.js';

const VERSION = process.env.HTMLDATE_VERSION ?? '1.11.0';
const VENV = join(ROOT, 'bench', 'out', 'venv-htmldate');
const PYTHON = join(VENV, 'bin', 'python');

const SCRIPT = `
import gzip, json, sys
from htmldate import find_date
pages = json.load(open(sys.argv[1]))
out = {}
for page in pages:
    raw = gzip.open(page["file"]).read()
    answer = {}
    for mode, extensive in (("extensive", True), ("fast", False)):
        try:
            answer[mode] = find_date(raw, url=page["url"], original_date=True, extensive_search=extensive)
        except Exception:
            answer[mode] = None
    out[page["id"]] = answer
json.dump(out, sys.stdout)
`;

export interface PeerDates {
  extensive: string | null;
  fast: string | null;
}

function ensureHtmldate(log: (line: string) => void): string | undefined {
  if (existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import htmldate'], { encoding: 'utf8' }).status === 0) return undefined;
  log(`htmldate peer: installing htmldate==${VERSION} into ${VENV}`);
  mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
  const venv = spawnSync('python3', ['-m', 'venv', VENV], { encoding: 'utf8' });
  if (venv.status !== 0) return `python3 -m venv failed: ${(venv.stderr || venv.error?.message || '').trim().split('\n').pop()}`;
  const pip = spawnSync(join(VENV, 'bin', 'pip'), ['install', '-q', `htmldate==${VERSION}`], { encoding: 'utf8' });
  if (pip.status !== 0) return `pip install htmldate failed: ${(pip.stderr || '').trim().split('\n').pop()}`;
  return undefined;
}

/** htmldate's answers by page id, or the reason it could not run. */
export function runHtmldate(pages: ReadonlyArray<{ id: string; url: string; file: string }>, log: (line: string) => void): Map<string, PeerDates> | string {
  const failure = ensureHtmldate(log);
  if (failure !== undefined) return failure;
  const input = join(ROOT, 'bench', 'out', 'htmldate-pages.json');
  writeFileSync(input, JSON.stringify(pages));
  const run = spawnSync(PYTHON, ['-c', SCRIPT, input], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) return `htmldate failed: ${(run.stderr || '').trim().split('\n').pop()}`;
  return new Map(Object.entries(JSON.parse(run.stdout) as Record<string, PeerDates>));
}
