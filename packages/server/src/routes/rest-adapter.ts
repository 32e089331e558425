/**
 * The REST adapter: a GET route over a capability. It registers `onAborted` first, copies the
 * request synchronously, and answers what the transport-neutral part (http/answer.ts:
 * authenticate, run, status + headers + body) made of it through `respond`.
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import type { z } from 'zod';
import type { Capability } from '../capability.js';
import { answerAuthenticated, capabilityWork, type AuthenticatedWork } from '../http/answer.js';
import { respondAnswer, type ResponseState } from '../http/respond.js';
import { snapshotRequest } from '../http/request.js';
import type { Services } from '../services.js';

export type { AuthenticatedWork };

/** Authenticate, then run `work` and answer its JSON (or its error) with the rate header. */
export function authenticatedRoute(services: Services, parameterCount: number, work: AuthenticatedWork) {
  return (res: HttpResponse, req: HttpRequest) => {
    const state: ResponseState = { aborted: false };
    res.onAborted(() => {
      state.aborted = true;
    });
    const snapshot = snapshotRequest(res, req, parameterCount);
    void answerAuthenticated(services, snapshot, work).then((answer) => respondAnswer(res, state, answer));
  };
}

export function registerCapabilityRoute<Schema extends z.ZodObject, Body>(
  app: TemplatedApp,
  services: Services,
  path: string,
  capability: Capability<Schema, Body>,
  pathParameterNames: string[] = [],
): void {
  app.get(path, authenticatedRoute(services, pathParameterNames.length, capabilityWork(services, capability, pathParameterNames)));
}
