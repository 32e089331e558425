/**
 * Every shell example in the served documents (/llms.txt, /skill.md, /guides/*) runs as
 * written against the demo corpus: `npm start`'s own entry point builds a small demo index in a
 * temp DATA_DIR and prints its key, then each ```sh block runs in bash with BASE and KEY set.
 * The harness only makes curl fail on an HTTP error status; the example text is unchanged.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repositoryRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const DOCUMENTS = ['/llms.txt', '/skill.md', '/guides/search-recipes', '/guides/graph-recipes', '/guides/agent-skill'];

let dataDir: string;
let child: ChildProcess;
let base: string;
let key: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'discovery-demo-'));
  child = spawn(process.execPath, [join(repositoryRoot, 'packages/server/dist/start.js')], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', DEMO_PASSAGES: '2000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await new Promise<void>((resolveStarted, rejectStarted) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const listening = /listening on (http:\/\/[\d.]+:\d+)/.exec(stdout);
      const printedKey = /^(ess_[0-9a-f]{48})$/m.exec(stdout);
      if (listening && printedKey) {
        base = listening[1];
        key = printedKey[1];
        resolveStarted();
      }
    });
    child.once('exit', (code) => rejectStarted(new Error(`npm start exited with ${code}: ${stderr}`)));
  });
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Run a shell block without blocking this process's event loop: a blocked loop cannot see the
 * server close an idle kept-alive connection (after 5 s), and the next fetch would be written on
 * it and fail (other side closed).
 */
function runShell(script: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun) => {
    const shell = spawn('bash', ['-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
    let stdout = '';
    let stderr = '';
    shell.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    shell.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    shell.once('close', (status) => resolveRun({ status, stdout, stderr }));
  });
}

function shellExamples(markdown: string): string[] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
}

describe('examples in the discovery documents', () => {
  it('run as written against the demo corpus', async () => {
    let examples = 0;
    // Every document first: the examples run with spawnSync, which blocks this event loop, so a
    // kept-alive socket the server closed meanwhile (after 5 s idle) would be reused unnoticed
    // and fail the next fetch with "other side closed" on a slow machine.
    const documents = await Promise.all(DOCUMENTS.map(async (path) => [path, await (await fetch(`${base}${path}`)).text()] as const));
    for (const [path, markdown] of documents) {
      const blocks = shellExamples(markdown);
      expect(blocks.length, `${path} has examples`).toBeGreaterThan(0);
      for (const block of blocks) {
        examples++;
        const run = await runShell(`set -euo pipefail\ncurl() { command curl -f "$@"; }\n${block}`, { ...process.env, BASE: base, KEY: key });
        const context = `${path}:\n${block}\nstderr: ${run.stderr}`;
        expect(run.status, context).toBe(0);
        expect(run.stdout.trim().length, context).toBeGreaterThan(0);
        expect(run.stdout, context).not.toContain('"isError":true');
        // A search that finds nothing in the demo corpus is not a working example.
        expect(run.stdout, context).not.toMatch(/"total":0[,}]/);
      }
    }
    expect(examples).toBeGreaterThanOrEqual(10);
  });
});
