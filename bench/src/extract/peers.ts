/**
 * The peers of `npm run bench:extract`, run on the same pages in the same run: Readability.js
 * alone (linkedom + @mozilla/readability with its defaults, `textContent` of its article) and
 * trafilatura from PyPI, installed on first use into a venv under bench/out/ (skipped, with the
 * reason, when Python or pip cannot provide it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

export interface PeerRun {
  texts: Map<string, string>;
  seconds: number;
  version?: string;
}

/** Readability.js as a library user calls it. */
export function readabilityAlone(html: string): string {
  const { document } = parseHTML(html) as unknown as { document: object };
  try {
    return new Readability(document as never).parse()?.textContent ?? '';
  } catch {
    return '';
  }
}

/** The venv's python with trafilatura, installing it when missing; a string says why not. */
function trafilaturaPython(outDirectory: string, log: (line: string) => void): string | { skipped: string } {
  const venv = join(outDirectory, 'trafilatura-venv');
  const python = join(venv, 'bin', 'python');
  const ready = (): boolean => {
    try {
      execFileSync(python, ['-c', 'import trafilatura'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (existsSync(python) && ready()) return python;
  try {
    mkdirSync(outDirectory, { recursive: true });
    log(`installing trafilatura from PyPI into ${venv} (once)`);
    if (!existsSync(python)) execFileSync('python3', ['-m', 'venv', venv], { stdio: 'ignore' });
    // lxml_html_clean: lxml >= 5.2 moved lxml.html.clean out, and jusText (trafilatura's fallback) imports it.
    execFileSync(python, ['-m', 'pip', 'install', '--quiet', 'trafilatura', 'lxml_html_clean'], { stdio: 'ignore', timeout: 600_000 });
  } catch (error) {
    return { skipped: `trafilatura could not be installed (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
  return ready() ? python : { skipped: 'trafilatura installed but does not import' };
}

/** trafilatura 2.x `extract(html, include_comments=False)` over a directory of `<id>.html.gz`. */
export function runTrafilatura(pagesDirectory: string, outDirectory: string, script: string, log: (line: string) => void): PeerRun | { skipped: string } {
  const python = trafilaturaPython(outDirectory, log);
  if (typeof python !== 'string') return python;
  const out = join(outDirectory, 'trafilatura-texts.json');
  try {
    execFileSync(python, [script, pagesDirectory, out], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 900_000 });
  } catch (error) {
    return { skipped: `trafilatura failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
  const result = JSON.parse(readFileSync(out, 'utf8')) as { texts: Record<string, string>; seconds: number; version: string };
  return { texts: new Map(Object.entries(result.texts)), seconds: result.seconds, version: result.version };
}
