/**
 * Imported first by this package: better-sqlite3 13 crashes the process (a segmentation fault, no
 * message) on Node 20, so a tree installed on a supported line and then run with Node 20 stops
 * here with a message instead. `npm install` refuses Node 20 the same way (scripts/node-line.cjs).
 */
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  throw new Error(`evidence-search runs on Node 22.13+, 24 or 26; this is Node ${process.versions.node} (Node 20 reached its end of life, and better-sqlite3 13 does not run on it)`);
}
export {};
