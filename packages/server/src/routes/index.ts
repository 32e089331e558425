import type { TemplatedApp } from 'uWebSockets.js';
import { respond } from '../http/respond.js';
import { documentCapability } from '../handlers/document.js';
import { searchCapability } from '../handlers/search.js';
import type { Services } from '../services.js';
import { registerAccount } from './account.js';
import { registerProbes } from './probes.js';
import { registerCapabilityRoute } from './rest-adapter.js';

export function registerRoutes(app: TemplatedApp, services: Services): void {
  registerProbes(app, services);
  registerCapabilityRoute(app, services, '/search', searchCapability);
  registerCapabilityRoute(app, services, '/doc/:id', documentCapability, ['id']);
  registerAccount(app, services);
  app.any('/*', (res, req) => {
    const method = req.getCaseSensitiveMethod();
    const url = req.getUrl();
    respond(res, { aborted: false }, 404, 'text/plain; charset=utf-8', `not found: no route ${method} ${url}`);
  });
}
