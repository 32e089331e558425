#!/usr/bin/env node
/** Entry of `npm run keys -- SUBCOMMAND`; everything else lives in console-commands.ts. */
import { runConsole } from './console-commands.js';

process.exitCode = await runConsole(process.argv.slice(2), {
  dataDir: process.env.DATA_DIR || './data',
  databaseUrl: process.env.DATABASE_URL || undefined,
  writeOut: (line) => process.stdout.write(`${line}\n`),
  writeError: (line) => process.stderr.write(`${line}\n`),
});
