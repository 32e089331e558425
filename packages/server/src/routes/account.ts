/** GET /account (SPEC 4.6): no credits, one per-minute token, answers even when out of credits. */
import type { Router } from '../http/router.js';
import type { Services } from '../services.js';
import { authenticatedRoute } from './rest-adapter.js';

export function registerAccount(router: Router, services: Services): void {
  router.get(
    '/account',
    authenticatedRoute(services, async (caller) => {
      await services.stores.meter.takeAccountToken(caller.tenant);
      return services.stores.meter.accountStatus(caller.tenant);
    }),
  );
}
