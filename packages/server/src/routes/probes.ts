/** Open probes (SPEC 4.10): no key, no credits, answered even while the pool is saturated. */
import { jsonAnswer, textAnswer } from '../http/answer.js';
import type { Router } from '../http/router.js';
import type { Services } from '../services.js';

export function registerProbes(router: Router, services: Services): void {
  router.get('/healthz', () => textAnswer(200, 'ok'));
  router.get('/readyz', () => {
    if (services.pool.shards === 0) return textAnswer(503, 'not ready: no shards configured');
    return jsonAnswer({ ready: true, shards: services.pool.shards, replicas: services.config.replicas });
  });
}
