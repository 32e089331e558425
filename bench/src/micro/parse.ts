/**
 * Query parsing, as the server does it on the event loop for GET /search: the query string into
 * parameters (the request snapshot), validated by the search capability's schema, into the
 * pool's request.
 */
import { parseParams } from '@evidence/schemas';
import { poolRequestOf, parseQuery, searchCapability } from '@evidence/server';
import { SEARCH_QUERY_STRINGS } from './fixtures/query-strings.js';
import type { MicroCase, MicroGroup } from './group.js';

/** The pool's deadline in the request built (the value does not change the work). */
const TIMEOUT_MS = 1000;

/** The REST route hands the capability a copy of the snapshot's query (routes/rest-adapter.ts). */
function caseOf(label: string, query: string): MicroCase {
  return {
    label,
    baseline: { name: 'new URLSearchParams', fn: () => new URLSearchParams(query) },
    tasks: [
      { name: 'parseQuery (request snapshot)', fn: () => parseQuery(query) },
      { name: '+ parseParams(search schema)', fn: () => parseParams(searchCapability.params, { ...parseQuery(query) }) },
      {
        name: '+ poolRequestOf (whole chain)',
        fn: () => {
          const params = parseParams(searchCapability.params, { ...parseQuery(query) });
          return poolRequestOf(params, params.mode, params.vertical, params.limit, TIMEOUT_MS);
        },
      },
    ],
  };
}

export const parseGroup: MicroGroup = {
  name: 'parse',
  title: 'Query parsing: GET /search query string -> validated search request (event loop)',
  legend:
    'baseline: new URLSearchParams(query string) alone, the floor of any parsing. Rows add the server steps in turn: ' +
    'parseQuery (server http/answer.ts), parseParams with the search capability\'s zod schema, poolRequestOf (retrieval/search-request.ts). ' +
    `short: ${SEARCH_QUERY_STRINGS.short}; full: ${SEARCH_QUERY_STRINGS.full.split('&').length} parameters of every kind, ${SEARCH_QUERY_STRINGS.full.length} characters.`,
  async setup() {
    return { cases: [caseOf('short', SEARCH_QUERY_STRINGS.short), caseOf('full', SEARCH_QUERY_STRINGS.full)] };
  },
};
