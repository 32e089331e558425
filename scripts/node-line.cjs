#!/usr/bin/env node
/**
 * Install-time checks of the running Node line (plain CommonJS: it runs before anything is built).
 *
 * `check` (preinstall): refuses a Node line the service does not run on, with a message that says
 * which ones it does, and notes that Node 20 is past its end of life.
 *
 * `native` (postinstall): better-sqlite3 compiles against the headers npm's `nodedir` names (on
 * machines where ~/.npmrc sets it for the system Node) or downloads them, which fails without
 * network. Built against another line's headers it cannot load (NODE_MODULE_VERSION differs). So
 * this loads it with the running Node and, when that fails, rebuilds it against the running
 * Node's own headers: the npm registry's `node` package ships them (include/node beside or under
 * its binary), as does a Node installed from a tarball or a Debian package.
 */
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, realpathSync } = require('node:fs');
const { dirname, join } = require('node:path');

const [major, minor] = process.versions.node.split('.').map(Number);
const SUPPORTED = 'Node 22.13+, 24 or 26 (20.17+ still works but is past its end of life)';

function check() {
  const supported = (major === 20 && minor >= 17) || (major === 22 && minor >= 13) || major >= 24;
  if (!supported) {
    process.stderr.write(`evidence-search needs ${SUPPORTED}; this is Node ${process.versions.node}.\n`);
    process.exit(1);
  }
  if (major === 20) {
    process.stderr.write(
      `note: Node 20 reached its end of life in April 2026. It still installs, builds and passes the tests here (CI runs it), ` +
        `but run the service on Node 22, 24 or 26.\n`,
    );
  }
}

function sqliteLoads() {
  const probe = spawnSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], { encoding: 'utf8' });
  const stderr = probe.stderr || '';
  const versions = /NODE_MODULE_VERSION \d+\.[^\n]*\n?[^\n]*NODE_MODULE_VERSION \d+/.exec(stderr);
  const reason = versions ? versions[0].replace(/\s+/g, ' ') : stderr.split('\n').find((line) => /Error:/.test(line)) || '';
  return { ok: probe.status === 0, error: reason.trim() };
}

/** The version a headers directory (holding include/node) is for, or null. */
function headersVersion(directory) {
  try {
    const text = readFileSync(join(directory, 'include', 'node', 'node_version.h'), 'utf8');
    const part = (name) => new RegExp(`#define\\s+NODE_${name}_VERSION\\s+(\\d+)`).exec(text)?.[1];
    return `${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}`;
  } catch {
    return null;
  }
}

/** Directories that may hold the running Node's headers, most likely first. */
function headerCandidates() {
  const candidates = [];
  if (process.env.npm_config_nodedir) candidates.push(process.env.npm_config_nodedir);
  for (const executable of new Set([process.execPath, realpathSync(process.execPath)])) {
    const prefix = dirname(dirname(executable));
    candidates.push(prefix);
    // The npm `node` package: bin/node, with the platform package (binary and headers) under node_modules.
    const nested = join(prefix, 'node_modules');
    if (existsSync(nested)) {
      for (const name of readdirSync(nested)) if (name.startsWith('node-')) candidates.push(join(nested, name));
    }
  }
  candidates.push('/usr', '/usr/local');
  return candidates;
}

function native() {
  const before = sqliteLoads();
  if (before.ok) return;
  const headers = headerCandidates().find((directory) => headersVersion(directory) === process.versions.node);
  if (!headers) {
    process.stderr.write(
      `better-sqlite3 does not load with Node ${process.versions.node} (${before.error}) and this Node's headers were not found ` +
        `(looked in: ${headerCandidates().join(', ')}). Set npm_config_nodedir to the directory holding include/node of Node ${process.versions.node} and run npm install again.\n`,
    );
    process.exit(1);
  }
  process.stderr.write(`better-sqlite3 was built for another Node line (${before.error}); rebuilding it against ${headers}\n`);
  const npm = process.env.npm_execpath;
  const command = npm ? [process.execPath, [npm, 'rebuild', 'better-sqlite3']] : ['npm', ['rebuild', 'better-sqlite3']];
  execFileSync(command[0], command[1], { stdio: 'inherit', env: { ...process.env, npm_config_nodedir: headers } });
  const after = sqliteLoads();
  if (!after.ok) {
    process.stderr.write(`better-sqlite3 still does not load after the rebuild: ${after.error}\n`);
    process.exit(1);
  }
}

const step = process.argv[2];
if (step === 'check') check();
else if (step === 'native') native();
else {
  process.stderr.write('usage: node scripts/node-line.cjs check|native\n');
  process.exit(2);
}
