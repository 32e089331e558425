/** Loads the addon, once per thread; `index.ts` and `shard-set.ts` take it from here. */
import { createRequire } from 'node:module';
import type * as Addon from '../addon.cjs';

const require = createRequire(import.meta.url);
export const addon = require('../addon.cjs') as typeof Addon;
