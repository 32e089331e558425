/**
 * The REST adapter: a GET route over a capability. It registers `onAborted` first, copies the
 * request synchronously, authenticates, runs the capability, and answers through `respond`.
 * Every authenticated answer carries `x-ratelimit-remaining`.
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import type { z } from 'zod';
import type { AuthenticatedCaller } from '@evidence/stores';
import { executeCapability, type Capability } from '../capability.js';
import { respondError, respondJson, type ResponseState } from '../http/respond.js';
import { snapshotRequest, type RequestSnapshot } from '../http/request.js';
import type { Services } from '../services.js';

export type AuthenticatedWork = (caller: AuthenticatedCaller, snapshot: RequestSnapshot) => Promise<unknown>;

/** Authenticate, then run `work` and answer its JSON (or its error) with the rate header. */
export function authenticatedRoute(services: Services, parameterCount: number, work: AuthenticatedWork) {
  return (res: HttpResponse, req: HttpRequest) => {
    const state: ResponseState = { aborted: false };
    res.onAborted(() => {
      state.aborted = true;
    });
    const snapshot = snapshotRequest(res, req, parameterCount);
    let caller: AuthenticatedCaller;
    try {
      caller = services.stores.authenticate(snapshot.headers, snapshot.address);
    } catch (error) {
      respondError(res, state, error);
      return;
    }
    const rateHeaders = () => ({
      'x-ratelimit-remaining': String(services.stores.meter.remainingThisMinute(caller.tenant)),
    });
    work(caller, snapshot).then(
      (body) => respondJson(res, state, body, rateHeaders()),
      (error: unknown) => respondError(res, state, error, rateHeaders()),
    );
  };
}

export function registerCapabilityRoute<Schema extends z.ZodObject, Body>(
  app: TemplatedApp,
  services: Services,
  path: string,
  capability: Capability<Schema, Body>,
  pathParameterNames: string[] = [],
): void {
  app.get(
    path,
    authenticatedRoute(services, pathParameterNames.length, async (caller, snapshot) => {
      const raw: Record<string, unknown> = { ...snapshot.query };
      pathParameterNames.forEach((name, index) => {
        raw[name] = snapshot.parameters[index];
      });
      const outcome = await executeCapability(capability, raw, caller, services);
      return outcome.body;
    }),
  );
}
