/**
 * Which HTTP layer serves: uWebSockets.js where it loads, node:http otherwise; HTTP_LAYER=uws or
 * node forces one (uws where it cannot load is an error naming why). uWS 20.69's binaries need
 * glibc 2.38 (README, "HTTP layers": how to run it on an older one).
 */
import { createRequire } from 'node:module';
import { NodeTransport } from './node-transport.js';
import type { Router } from './router.js';
import { MAX_HEADER_BYTES, type HttpLayer, type OnAnswered, type Transport } from './transport.js';
import { UwsTransport, type UwsModule } from './uws-transport.js';

let loaded: { uws: UwsModule } | { error: string } | null = null;

/** `@uwsjs/core`, or why it does not load here (once per process). */
export function loadUws(): { uws: UwsModule } | { error: string } {
  if (loaded) return loaded;
  // Read by uWS's parser when its binary loads: the header bytes it accepts (431 past them), as node:http's.
  process.env.UWS_HTTP_MAX_HEADERS_SIZE ??= String(MAX_HEADER_BYTES);
  try {
    loaded = { uws: createRequire(import.meta.url)('@uwsjs/core') as UwsModule };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // the package's message names the Node lines it has binaries for; the loader's, the missing glibc symbol
    loaded = { error: message.split('\n').filter((line) => line.trim() !== '').slice(-2).join(' ').slice(0, 400) };
  }
  return loaded;
}

/** The transport of the setting (`undefined`: uws where it loads, else node). */
export function createTransport(setting: HttpLayer | undefined, router: Router, onAnswered: OnAnswered): Transport {
  if (setting === 'node') return new NodeTransport(router, onAnswered);
  const uws = loadUws();
  if ('uws' in uws) return new UwsTransport(uws.uws, router, onAnswered);
  if (setting === 'uws') {
    throw new Error(
      `HTTP_LAYER=uws: uWebSockets.js does not load here (${uws.error}); it needs glibc 2.38 or newer and Node 22, 24 or 26 ` +
        '(README, "HTTP layers": scripts/trixie-glibc.sh runs it on an older glibc), or set HTTP_LAYER=node',
    );
  }
  return new NodeTransport(router, onAnswered);
}
