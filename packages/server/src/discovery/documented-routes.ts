/**
 * REST paths as documents print them: the catalog stores router patterns (`/doc/:id`, as `http/router.ts` matches them), OpenAPI and
 * /describe write `/doc/{id}`.
 */
import { CATALOG, type CatalogEntry } from '../catalog.js';

export function documentedPath(routePattern: string): string {
  return routePattern.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

export interface PricedRoute {
  method: 'GET';
  path: string;
  cost: number;
  /** Credits a call that ran and failed costs. */
  failure_cost: number;
  tool: string | null;
  summary: string;
}

export function catalogRoutes(): PricedRoute[] {
  return CATALOG.map((entry: CatalogEntry) => ({
    method: 'GET',
    path: documentedPath(entry.rest.path),
    cost: entry.capability.cost,
    failure_cost: Math.min(entry.capability.failureCost, entry.capability.cost),
    tool: entry.tool.name,
    summary: entry.rest.summary,
  }));
}

/** The routes outside the catalog that need a key: /account (no credits, one per-minute token). */
export const ACCOUNT_ROUTE: PricedRoute = {
  method: 'GET',
  path: '/account',
  cost: 0,
  failure_cost: 0,
  tool: null,
  summary: 'Plan, per-minute rate, monthly credits and usage (no credits; takes one per-minute token)',
};

/** Open routes: no key, no credits. */
export const OPEN_ROUTES = [
  { method: 'GET', path: '/describe', summary: 'What this deployment holds and how its evidence vocabulary reads' },
  { method: 'GET', path: '/openapi.json', summary: 'OpenAPI 3.1 description of every endpoint' },
  { method: 'GET', path: '/mcp/tools.json', summary: 'What MCP tools/list reports; ?profile=grounding selects the grounding profile' },
  { method: 'GET', path: '/llms.txt', summary: 'Short plain-text orientation' },
  { method: 'GET', path: '/skill.md', summary: 'Agent skill document' },
  { method: 'GET', path: '/guides/{slug}', summary: 'Markdown guides: search-recipes, graph-recipes, agent-skill' },
  { method: 'GET', path: '/healthz', summary: 'Liveness' },
  { method: 'GET', path: '/readyz', summary: 'Readiness (503 when no shards are configured)' },
] as const;
