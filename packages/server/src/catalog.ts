/**
 * The catalog: every priced capability with its REST route and its MCP tool. Routes, tools,
 * OpenAPI and /mcp/tools.json are all generated from this one table, so a capability is added
 * in exactly one place.
 */
import type { Capability } from './capability.js';
import { documentCapability } from './handlers/document.js';
import { searchCapability } from './handlers/search.js';
import { browseCapability } from './handlers/browse.js';
import { similarCapability } from './handlers/similar.js';

export interface CatalogEntry {
  capability: Capability;
  rest: {
    /** uWS pattern, e.g. `/doc/:id` */
    path: string;
    /** Names of the `:parameters` in `path`, in order; they join the query parameters. */
    pathParameters: string[];
    summary: string;
  };
  tool: {
    name: string;
    description: string;
    /** MCP argument name -> REST parameter name (web_search takes `query` where REST takes `q`). */
    argumentAliases: Record<string, string>;
  };
}

export const CATALOG: CatalogEntry[] = [
  {
    capability: searchCapability,
    rest: { path: '/search', pathParameters: [], summary: 'Ranked, metadata-only hits with the passage text as snippet (1 credit)' },
    tool: {
      name: 'web_search',
      description:
        'Search the index of web passages. Returns ranked hits (url, title, host, trust signals, snippet) and the real match count. ' +
        'A small result set usually means the index holds little on the topic; partial=true means part of the index was unreachable. Costs 1 credit.',
      argumentAliases: { query: 'q' },
    },
  },
  {
    capability: documentCapability,
    rest: { path: '/doc/:id', pathParameters: ['id'], summary: 'Full text of one passage by id (1 credit)' },
    tool: {
      name: 'get_document',
      description: 'Full cleaned text of one passage by its id (page:no) from a search hit. Costs 1 credit.',
      argumentAliases: {},
    },
  },
  {
    capability: similarCapability,
    rest: { path: '/similar', pathParameters: [], summary: 'Semantic neighbours of a passage, never the passage itself (1 credit)' },
    tool: {
      name: 'similar',
      description: 'Passages semantically close to a seed passage (more-like-this), by its id (page:no). Costs 1 credit.',
      argumentAliases: {},
    },
  },
  {
    capability: browseCapability,
    rest: { path: '/browse', pathParameters: [], summary: 'Recent or top passages without a query (1 credit)' },
    tool: {
      name: 'browse',
      description: 'Recent (default) or top passages by host_rank, quality, published, words or centrality, optionally in one vertical, without a query. Costs 1 credit.',
      argumentAliases: {},
    },
  },
];
