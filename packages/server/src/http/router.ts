/**
 * The route table: method and path pattern (`/doc/:id`, one segment per parameter) to a
 * transport-neutral handler. HEAD is answered by the GET route (the transport leaves the body
 * out); a path served for other methods only answers 405 with `allow`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { HttpAnswer, RequestSnapshot } from './answer.js';

export type Method = 'GET' | 'POST' | 'DELETE';

/** What a handler gets: the request copied into plain values, its headers and (POST) its body. */
export interface RouteRequest {
  snapshot: RequestSnapshot;
  headers: IncomingHttpHeaders;
  /** The whole body of a route that reads one (bounded by its `maxBodyBytes`), else null. */
  body: Buffer | null;
}

export type RouteHandler = (request: RouteRequest) => Promise<HttpAnswer> | HttpAnswer;

export interface Route {
  method: Method;
  handler: RouteHandler;
  /** Routes that read a body: the most bytes accepted (413 past it). */
  maxBodyBytes?: number;
}

interface Pattern {
  /** As registered (`/doc/:id`): the route label of metrics and logs, never the raw path. */
  pattern: string;
  segments: string[];
  routes: Route[];
}

export type RouteMatch =
  | { found: true; route: Route; pattern: string; parameters: string[] }
  | { found: false; pattern: string | null; allow: Method[] };

function segmentsOf(path: string): string[] {
  return path.split('/').slice(1);
}

export class Router {
  private readonly patterns: Pattern[] = [];

  get(pattern: string, handler: RouteHandler): this {
    return this.add(pattern, { method: 'GET', handler });
  }

  post(pattern: string, handler: RouteHandler, options: { maxBodyBytes: number }): this {
    return this.add(pattern, { method: 'POST', handler, maxBodyBytes: options.maxBodyBytes });
  }

  delete(pattern: string, handler: RouteHandler): this {
    return this.add(pattern, { method: 'DELETE', handler });
  }

  private add(pattern: string, route: Route): this {
    const segments = segmentsOf(pattern);
    let entry = this.patterns.find((existing) => existing.segments.join('/') === segments.join('/'));
    if (!entry) {
      entry = { pattern, segments, routes: [] };
      this.patterns.push(entry);
    }
    entry.routes.push(route);
    return this;
  }

  /** The route of a method and a decoded-on-demand path; `allow` lists the methods the path does take. */
  match(method: string, path: string): RouteMatch {
    const requested = segmentsOf(path);
    for (const pattern of this.patterns) {
      const parameters = matchSegments(pattern.segments, requested);
      if (!parameters) continue;
      const wanted = method === 'HEAD' ? 'GET' : method;
      const route = pattern.routes.find((candidate) => candidate.method === wanted);
      if (route) return { found: true, route, pattern: pattern.pattern, parameters };
      return { found: false, pattern: pattern.pattern, allow: pattern.routes.map((candidate) => candidate.method) };
    }
    return { found: false, pattern: null, allow: [] };
  }
}

function matchSegments(pattern: string[], requested: string[]): string[] | null {
  if (pattern.length !== requested.length) return null;
  const parameters: string[] = [];
  for (let index = 0; index < pattern.length; index++) {
    if (pattern[index].startsWith(':')) {
      if (requested[index] === '') return null;
      parameters.push(requested[index]);
    } else if (pattern[index] !== requested[index]) {
      return null;
    }
  }
  return parameters;
}
