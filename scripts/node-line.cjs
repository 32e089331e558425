#!/usr/bin/env node
/**
 * `npm install`'s preinstall step (plain CommonJS: nothing is built yet): refuse a Node line the
 * service does not run on, with a message that says which ones it does and why.
 *
 * Node 20 is refused: it reached its end of life in April 2026, and the SQLite binding
 * (better-sqlite3 13, a Node-API build shipped prebuilt) crashes on it, while better-sqlite3 12,
 * the last line that loads on Node 20, aborts in its statement finalizers on Node 24.19+ and 26.
 */
'use strict';

const [major, minor] = process.versions.node.split('.').map(Number);
const supported = (major === 22 && minor >= 13) || major >= 24;

if (!supported) {
  process.stderr.write(
    `\nevidence-search runs on Node 22.13+, 24 or 26; this is Node ${process.versions.node}.\n` +
      (major === 20
        ? 'Node 20 reached its end of life in April 2026, and the SQLite binding used here (better-sqlite3 13) does not run on it.\n'
        : '') +
      'Install a supported line, for instance from the npm registry:\n' +
      '  npm install --prefix ~/node24 node@24 && export PATH=~/node24/node_modules/node/bin:$PATH\n' +
      'then run npm install again.\n\n',
  );
  process.exit(1);
}
