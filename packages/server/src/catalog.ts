/**
 * The catalog: every priced capability with its REST route and its MCP tool. Routes, tools,
 * OpenAPI and /mcp/tools.json are all generated from this one table, so a capability is added
 * in exactly one place.
 */
import type { Capability } from './capability.js';
import { documentCapability } from './capabilities/document.js';
import { searchCapability } from './capabilities/search.js';
import { browseCapability } from './capabilities/browse.js';
import { similarCapability } from './capabilities/similar.js';
import { groundCapability } from './capabilities/ground.js';
import { changesCapability } from './capabilities/changes.js';
import { assembleContextCapability } from './capabilities/assemble-context.js';
import { whyNotCapability } from './capabilities/why-not.js';
import { relatedCapability } from './capabilities/related.js';
import { corroborateCapability } from './capabilities/corroborate.js';
import { pathCapability } from './capabilities/path.js';

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
  {
    capability: groundCapability,
    rest: { path: '/ground', pathParameters: [], summary: 'The smallest defensible evidence set for an objective, with provenance and a coverage receipt (5 credits)' },
    tool: {
      name: 'ground',
      description:
        'Ground an objective (a question, task or claim) in the index: returns the smallest defensible evidence set, one item per origin ' +
        '(who first published it; copies and republishes are folded in and never counted twice), each with its source role, owner and ' +
        'independence score, plus a coverage receipt (what was and was not searched) and next_actions. Read `status` first: sufficient ' +
        '(at least min_independent_origins distinct owners and a require_role source), insufficient (next_actions says what would help), ' +
        'stale (nothing inside max_age; stale_evidence shows older material), partial (part of the index was unreachable: never treat as ' +
        'complete) or empty. Deterministic: no model, no generated answer. Costs 5 credits; a call that runs and fails costs 1.',
      argumentAliases: {},
    },
  },
  {
    capability: changesCapability,
    rest: { path: '/changes', pathParameters: [], summary: 'What changed in the evidence for an objective since an instant (10 credits)' },
    tool: {
      name: 'evidence_changes',
      description:
        'What changed in the evidence for an objective since an instant (`since`: unix seconds, seconds ago, or 1d / 12h / 2w ago): ' +
        'the evidence is built over everything and over only what had been crawled by then, and diffed into new_evidence, ' +
        'origins_gained, roles_gained and independent_origins before/after. known_urls reports whether URLs you relied on are still ' +
        'present, removed (with reason and superseding passage) or unknown. Read `status` first: changed, unchanged or partial. ' +
        'Costs 10 credits; a call that runs and fails costs 1.',
      argumentAliases: {},
    },
  },
  {
    capability: assembleContextCapability,
    rest: { path: '/assemble_context', pathParameters: [], summary: 'Corroborated, story-deduplicated, trust-ranked passages packed to a token budget (3 credits)' },
    tool: {
      name: 'assemble_context',
      description:
        'A context pack for a query: one passage per story (near-duplicates folded), ranked by relevance, host trust and ' +
        'corroboration, packed under `budget` estimated tokens (a ceiling), each with the reason it earned its place. ' +
        'Costs 3 credits; a call that runs and fails costs 1.',
      argumentAliases: {},
    },
  },
  {
    capability: relatedCapability,
    rest: { path: '/related', pathParameters: [], summary: 'Passages connected to a passage through links, co-citation and its graph community (1 credit)' },
    tool: {
      name: 'related',
      description:
        'Passages connected to a passage (by its id, page:no, from a hit or an evidence item) through the link graph and the story ' +
        'structure: pages its page links to (links_to), pages linking to it (linked_from), pages cited together with it by a third page ' +
        '(co_cited, with how many pages cite both) and other stories of its graph community (same_community). Each result says how it is ' +
        'related (`relations`); `relation` picks kinds; `limit` as in search, `total` real. Costs 1 credit.',
      argumentAliases: {},
    },
  },
  {
    capability: corroborateCapability,
    rest: { path: '/corroborate', pathParameters: [], summary: 'Whether independent origins confirm what a passage says, with a verdict and a coverage receipt (3 credits)' },
    tool: {
      name: 'corroborate',
      description:
        "Whether independent origins confirm what a passage says (its id, page:no; optionally a `claim`, else the passage's own text): " +
        "the other origins of its story and near-paraphrases in other stories, as evidence items with owner, origin type, source role and " +
        'independence computed as ground computes them. Read `verdict` first: corroborated (an origin of another owner supports it), ' +
        'contested (one contradicts it), single_origin (no other owner confirms it) or partial (part of the index was unreachable). ' +
        "`rule` states the rule, `coverage` what was searched, next_actions what to do. Ground's corroborate next action targets this " +
        'tool with the item id. Costs 3 credits; a call that runs and fails costs 1.',
      argumentAliases: {},
    },
  },
  {
    capability: pathCapability,
    rest: { path: '/path', pathParameters: [], summary: "How a passage's text reached its host, or the link path between two passages' pages (1 credit)" },
    tool: {
      name: 'path',
      description:
        "How a passage's text reached its host (by its id, page:no): the chain within its story from the origin's first passage through " +
        'wire carriers and republishes to this copy, earliest first, each step with host, owner, origin type and time. With `to` (another ' +
        "passage id): the shortest link path between the two passages' pages, each hop naming the linking page, at most `max_depth` hops " +
        '(truncated=true when a bound cut the search short). Costs 1 credit.',
      argumentAliases: {},
    },
  },
  {
    capability: whyNotCapability,
    rest: { path: '/why_not', pathParameters: [], summary: 'Whether a URL is in the index and, if not, why (1 credit)' },
    tool: {
      name: 'why_not',
      description:
        'Whether a URL is in the index: present (with its first passage), removed (with the reason: redundant, superseded, stale, ' +
        'access-starved, lost-replacement or tombstoned-source; when; and the replacing passage) or unknown (never admitted or never ' +
        'seen). Use it for a source you expected and did not get. Costs 1 credit.',
      argumentAliases: {},
    },
  },
];
