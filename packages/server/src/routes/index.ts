import type { TemplatedApp } from 'uWebSockets.js';
import { respond } from '../http/respond.js';
import { CATALOG } from '../catalog.js';
import type { Services } from '../services.js';
import { registerAccount } from './account.js';
import { registerDiscovery } from './discovery.js';
import { registerMcp } from './mcp.js';
import { registerProbes } from './probes.js';
import { registerCapabilityRoute } from './rest-adapter.js';

export function registerRoutes(app: TemplatedApp, services: Services): void {
  registerProbes(app, services);
  for (const entry of CATALOG) {
    registerCapabilityRoute(app, services, entry.rest.path, entry.capability, entry.rest.pathParameters);
  }
  registerAccount(app, services);
  registerMcp(app, services);
  registerDiscovery(app, services);
  app.any('/*', (res, req) => {
    const method = req.getCaseSensitiveMethod();
    const url = req.getUrl();
    respond(res, { aborted: false }, 404, 'text/plain; charset=utf-8', `not found: no route ${method} ${url}`);
  });
}
