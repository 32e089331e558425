/** GET /account (SPEC 4.6): no credits, one per-minute token, answers even when out of credits. */
import type { TemplatedApp } from 'uWebSockets.js';
import type { Services } from '../services.js';
import { authenticatedRoute } from './rest-adapter.js';

export function registerAccount(app: TemplatedApp, services: Services): void {
  app.get(
    '/account',
    authenticatedRoute(services, 0, async (caller) => {
      services.stores.meter.takeAccountToken(caller.tenant);
      return services.stores.meter.accountStatus(caller.tenant);
    }),
  );
}
