/**
 * GET /metrics: Prometheus text format, no key, no credits, no work for the shard pool (its
 * figures are read from counters the pool keeps). Loopback may always read it; `METRICS_ALLOW`
 * names who else may; anyone else gets 403.
 */
import { textAnswer } from '../http/answer.js';
import type { Router } from '../http/router.js';
import { MetricsAccess } from '../observability/metrics-access.js';
import type { Services } from '../services.js';

export function registerMetrics(router: Router, services: Services): void {
  const access = new MetricsAccess(services.config.metricsAllow);
  router.get('/metrics', async ({ snapshot }) => {
    if (!access.allows(snapshot.address)) {
      return textAnswer(403, 'forbidden: /metrics is open to loopback and the addresses METRICS_ALLOW names');
    }
    return { status: 200, contentType: services.metrics.contentType, body: await services.metrics.render(), headers: {} };
  });
}
