import { CATALOG } from '../catalog.js';
import { Router } from '../http/router.js';
import type { Services } from '../services.js';
import { registerAccount } from './account.js';
import { registerDiscovery } from './discovery.js';
import { registerMcp } from './mcp.js';
import { registerMetrics } from './metrics.js';
import { registerProbes } from './probes.js';
import { registerCapabilityRoute } from './rest-adapter.js';

/** Every route of the service; paths no route takes answer 404, other methods 405. */
export function buildRouter(services: Services): Router {
  const router = new Router();
  registerProbes(router, services);
  for (const entry of CATALOG) {
    registerCapabilityRoute(router, services, entry.rest.path, entry.capability, entry.rest.pathParameters);
  }
  registerAccount(router, services);
  registerMcp(router, services);
  registerDiscovery(router, services);
  registerMetrics(router, services);
  return router;
}
