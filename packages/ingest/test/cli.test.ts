import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PACKAGE_DIRECTORY, assertBuilt, removeDirectory, temporaryDirectory, totalDocuments, writeJsonl } from './helpers.js';

const CLI = join(PACKAGE_DIRECTORY, 'dist', 'cli.js');

function runCli(args: string[], environment: Record<string, string>) {
  const { SHARDS: _ignored, ...inherited } = process.env;
  return spawnSync(process.execPath, [CLI, ...args], { env: { ...inherited, ...environment }, encoding: 'utf8', timeout: 20_000 });
}

let directory: string;

beforeAll(() => assertBuilt());
beforeEach(() => {
  directory = temporaryDirectory();
});
afterEach(() => removeDirectory(directory));

describe('ingest cli', () => {
  it('ingests a file into DATA_DIR, prints the summary and exits 0 despite a malformed line', () => {
    const file = writeJsonl(directory, 'pages.jsonl', [
      { url: 'https://example.org/a', title: 'A', text: 'A first page about tidal power plants on the northern coast.', fetched_at: 1_700_000_000 },
      { url: 'https://example.org/b', title: 'B', fetched_at: 1_700_000_000 },
    ]);
    const dataDir = join(directory, 'data');
    const result = runCli([file], { DATA_DIR: dataDir, SHARDS: '3' });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^passages added: +1$/m);
    expect(result.stdout).toMatch(/^malformed lines: +1$/m);
    expect(result.stdout).toMatch(/^shards: +3$/m);
    expect(result.stdout).toMatch(/^passages per second: +\d+$/m);
    expect(result.stderr).toContain(`${file}:2: text is missing`);
    expect(totalDocuments(dataDir)).toBe(1);
  });

  it('exits 1 when a file cannot be read', () => {
    const result = runCli([join(directory, 'missing.jsonl')], { DATA_DIR: join(directory, 'data') });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/missing\.jsonl: cannot read/);
  });

  it('exits 2 with usage when no file is given', () => {
    const result = runCli([], { DATA_DIR: join(directory, 'data') });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^usage: /);
  });
});
