/** Open probes (SPEC 4.10): no key, no credits, answered even while the pool is saturated. */
import { jsonAnswer, textAnswer } from '../http/answer.js';
import type { Router } from '../http/router.js';
import type { Services } from '../services.js';

export function registerProbes(router: Router, services: Services): void {
  router.get('/healthz', () => textAnswer(200, 'ok'));
  router.get('/readyz', () => {
    if (services.pool.shards === 0) return textAnswer(503, 'not ready: no shards configured');
    // a node behind the index on disk still serves (its previous commit, whole): ready, and says so
    const commits = services.pool.commitStates();
    const caughtUp = commits.every((state) => state.committed_opstamp === state.serving_opstamp);
    return jsonAnswer({
      ready: true,
      shards: services.pool.shards,
      replicas: services.config.replicas,
      index: { caught_up: caughtUp, shards: commits },
    });
  });
}
