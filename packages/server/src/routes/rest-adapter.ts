/**
 * The REST adapter: a GET route over a capability. The transport copies the request into a
 * snapshot; the transport-neutral part (http/answer.ts: authenticate, run, status + headers +
 * body) answers it.
 */
import type { z } from 'zod';
import type { Capability } from '../capability.js';
import { answerAuthenticated, capabilityWork, type AuthenticatedWork } from '../http/answer.js';
import type { RouteHandler, Router } from '../http/router.js';
import type { Services } from '../services.js';

export type { AuthenticatedWork };

/** Authenticate, then run `work` and answer its JSON (or its error) with the rate header. */
export function authenticatedRoute(services: Services, work: AuthenticatedWork): RouteHandler {
  return ({ snapshot }) => answerAuthenticated(services, snapshot, work);
}

export function registerCapabilityRoute<Schema extends z.ZodObject, Body>(
  router: Router,
  services: Services,
  path: string,
  capability: Capability<Schema, Body>,
  pathParameterNames: string[] = [],
): void {
  router.get(path, authenticatedRoute(services, capabilityWork(services, capability, pathParameterNames)));
}
