/** Open probes (SPEC 4.10): no key, no credits, answered even while the pool is saturated. */
import type { TemplatedApp } from 'uWebSockets.js';
import { respond, type ResponseState } from '../http/respond.js';
import type { Services } from '../services.js';

export function registerProbes(app: TemplatedApp, services: Services): void {
  app.get('/healthz', (res) => {
    respond(res, { aborted: false }, 200, 'text/plain; charset=utf-8', 'ok');
  });
  app.get('/readyz', (res) => {
    const state: ResponseState = { aborted: false };
    // Ready means shards are configured and a backend is wired; an empty index is ready.
    if (services.pool.shards === 0) {
      respond(res, state, 503, 'text/plain; charset=utf-8', 'not ready: no shards configured');
      return;
    }
    respond(res, state, 200, 'application/json', JSON.stringify({ ready: true, shards: services.pool.shards, replicas: services.config.replicas }));
  });
}
