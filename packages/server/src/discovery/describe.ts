/**
 * GET /describe (SPEC 4.10): what this deployment holds and how its answers read. Filters,
 * sort, collapse and modes come from the web_search parameter schema in the catalog, the
 * verticals, content types, authorities and topics from the live index (through a cache), the
 * routes and costs from the catalog, the tool profiles from the MCP toolsets; only the
 * evidence vocabulary of SPEC 2.6 is constant.
 */
import { DERIVED_VERTICALS, GENERAL_VERTICAL, jsonSchemaOf, type JsonSchema } from '@evidence/schemas';
import { z } from 'zod';
import { CATALOG } from '../catalog.js';
import {
  CLAIM_RELATIONS,
  GRAPH_VOCABULARY,
  GROUND_DEFAULTS,
  GROUND_STATUSES,
  INDEPENDENCE_RULE,
  NEXT_ACTIONS,
  ORIGIN_TYPES,
  RISK_FLAGS,
  SOURCE_ROLES,
} from './evidence-vocabulary.js';
import type { LiveVocabulary } from './live-vocabulary.js';
import { ACCOUNT_ROUTE, catalogRoutes, OPEN_ROUTES } from './documented-routes.js';
import { availableTools, TOOL_PROFILES } from '../mcp-tools.js';

/** Search parameters that shape the answer rather than filter it; every other one is a filter. */
const NOT_FILTERS = new Set(['q', 'limit', 'mode', 'sort', 'collapse', 'facets', 'fields', 'prefer_recent', 'prefer_authority']);

const NamedText = z.object({ name: z.string(), description: z.string() });
const PricedRouteSchema = z.object({
  method: z.string(),
  path: z.string(),
  cost: z.number().int(),
  failure_cost: z.number().int(),
  tool: z.string().nullable(),
  summary: z.string(),
});

export const DescribeSchema = z.object({
  service: z.string(),
  filters: z.array(NamedText).describe('search parameters that narrow the matches, with what each accepts'),
  sort: z.array(z.string()).describe('values of the search sort parameter'),
  collapse: z.array(z.string()).describe('values of the search collapse parameter'),
  modes: z.array(z.string()).describe('values of the search mode parameter'),
  verticals: z.array(z.string()).describe('verticals with data in the live index'),
  vertical_taxonomy: z
    .object({
      default: z.string().describe('the vertical of a page that gives no grounds for one'),
      verticals: z.array(z.object({ name: z.string(), curlie: z.string().describe('the Curlie top-level category it stands for'), description: z.string() })),
    })
    .describe('the verticals ingest derives from a page whose record names none (a record may name any vertical of its own)'),
  content_types: z.array(z.string()).describe('content types with data in the live index'),
  authorities: z.array(z.string()).describe('publisher authorities with data in the live index'),
  topics: z.array(z.string()).describe('topic tags with data in the live index: the 200 most frequent'),
  embedding: z
    .object({
      embedder: z.string().describe('the embedder the index was built with (index.json); `none` when this node serves no vectors'),
      dimensions: z.number().int(),
      runs: z.enum(['engine', 'model']).describe('engine: vectors made at ingest; model: made after ingest by a background embedder'),
      passages: z.number().int().describe('live passages: as of now on the node that embeds, else as of live_values_refreshed_at'),
      embedded: z.number().int().describe('how many of them have a vector (semantic search reaches only these)'),
      complete: z.boolean(),
      embedding_here: z.boolean().describe('whether this node runs the background embedder (one node per index does)'),
    })
    .describe('the vectors behind semantic and hybrid search, and how far the background embedder has come'),
  live_values_refreshed_at: z.number().int().nullable().describe('unix seconds of the last read of the four lists above; null before the first'),
  profiles: z.record(
    z.string(),
    z.object({
      description: z.string(),
      tools: z.array(z.string()).describe('the tools the profile names'),
      available: z.array(z.string()).describe('those of them this deployment serves today'),
      tools_url: z.string(),
      mcp_url: z.string(),
    }),
  ),
  ground: z.object({
    available: z.boolean().describe('whether this deployment serves the ground tool yet'),
    defaults: z.record(z.string(), z.unknown()),
    statuses: z.record(z.string(), z.string()),
    next_actions: z.record(z.string(), z.string()).describe('actions next_actions may suggest'),
    independence: z.record(z.string(), z.unknown()),
  }),
  graph: z
    .object({
      relations: z.record(z.string(), z.string()),
      related_bounds: z.record(z.string(), z.number()),
      corroboration_verdicts: z.record(z.string(), z.string()),
      corroboration_rule: z.string(),
      paraphrase_min_overlap: z.number(),
      chain_steps: z.record(z.string(), z.string()),
      path_bounds: z.record(z.string(), z.number()),
    })
    .describe('related, corroborate and path: relation kinds, corroboration verdicts and their rule, provenance chain steps, bounds'),
  vocab: z.object({
    source_role: z.record(z.string(), z.string()),
    origin_type: z.record(z.string(), z.string()),
    risk_flags: z.record(z.string(), z.string()),
    claim_relation: z.record(z.string(), z.string()),
  }),
  capabilities: z.object({
    on_demand_crawl: z.boolean(),
    mcp: z.boolean(),
    mcp_transports: z.array(z.string()),
    routes: z.array(PricedRouteSchema).describe('routes that take a key, with their cost in credits'),
    open_routes: z.array(z.object({ method: z.string(), path: z.string(), summary: z.string() })).describe('no key, no credits'),
  }),
});
export type Describe = z.infer<typeof DescribeSchema>;

function searchParameters(): Record<string, JsonSchema> {
  const search = CATALOG.find((entry) => entry.tool.name === 'web_search');
  if (!search) return {};
  return (jsonSchemaOf(search.capability.params, 'input').properties ?? {}) as Record<string, JsonSchema>;
}

function enumValues(property: JsonSchema | undefined, fallback: string[]): string[] {
  return Array.isArray(property?.enum) ? (property.enum as string[]) : fallback;
}

/** The parts that do not change while the process runs, computed once. */
let staticPart: Omit<Describe, 'verticals' | 'content_types' | 'authorities' | 'topics' | 'embedding' | 'live_values_refreshed_at'> | null = null;

function describeStatic(): NonNullable<typeof staticPart> {
  if (staticPart) return staticPart;
  const parameters = searchParameters();
  const tools = new Set(CATALOG.map((entry) => entry.tool.name));
  staticPart = {
    service: 'evidence search: ranked search and evidence retrieval over an index of web passages',
    filters: Object.entries(parameters)
      .filter(([name]) => !NOT_FILTERS.has(name))
      .map(([name, property]) => ({ name, description: String(property.description ?? '') })),
    // Before the schema names sort and collapse values, hits come in relevance order, uncollapsed.
    sort: enumValues(parameters.sort, ['relevance']),
    collapse: enumValues(parameters.collapse, ['none']),
    modes: enumValues(parameters.mode, []),
    vertical_taxonomy: { default: GENERAL_VERTICAL, verticals: DERIVED_VERTICALS.map((vertical) => ({ ...vertical })) },
    profiles: {
      default: {
        description: 'every tool',
        tools: [...tools],
        available: [...tools],
        tools_url: '/mcp/tools.json',
        mcp_url: '/mcp',
      },
      ...Object.fromEntries(
        Object.entries(TOOL_PROFILES).map(([name, profile]) => [
          name,
          {
            description: profile.description,
            tools: [...profile.tools],
            available: availableTools(profile),
            tools_url: `/mcp/tools.json?profile=${name}`,
            mcp_url: `/mcp?profile=${name}`,
          },
        ]),
      ),
    },
    ground: {
      available: tools.has('ground'),
      defaults: { ...GROUND_DEFAULTS, require_role: [...GROUND_DEFAULTS.require_role] },
      statuses: { ...GROUND_STATUSES },
      next_actions: { ...NEXT_ACTIONS },
      independence: { ...INDEPENDENCE_RULE },
    },
    graph: structuredClone(GRAPH_VOCABULARY),
    vocab: {
      source_role: { ...SOURCE_ROLES },
      origin_type: { ...ORIGIN_TYPES },
      risk_flags: { ...RISK_FLAGS },
      claim_relation: { ...CLAIM_RELATIONS },
    },
    capabilities: {
      on_demand_crawl: false,
      mcp: true,
      mcp_transports: ['streamable-http: POST /mcp (stateless, JSON answers)', 'stdio: npm run mcp:stdio (self-hosted)'],
      routes: [...catalogRoutes(), ACCOUNT_ROUTE],
      open_routes: OPEN_ROUTES.map((route) => ({ ...route })),
    },
  };
  return staticPart;
}

/** What /describe says of the vectors: the index's embedder and how many passages have one. */
export interface DescribedVectors {
  embedder: string;
  dimensions: number;
  runs: 'engine' | 'model';
  serving: boolean;
  embeddingHere: boolean;
  /** The background embedder's own count, when this node runs it (fresher than the live values). */
  progress: { passages: number; embedded: number } | null;
}

export function describeDocument(live: { values: LiveVocabulary; refreshedAt: number | null }, vectors: DescribedVectors): Describe {
  const fixed = describeStatic();
  return {
    service: fixed.service,
    filters: fixed.filters,
    sort: fixed.sort,
    collapse: fixed.collapse,
    modes: fixed.modes,
    verticals: live.values.verticals,
    vertical_taxonomy: fixed.vertical_taxonomy,
    content_types: live.values.content_types,
    authorities: live.values.authorities,
    topics: live.values.topics,
    embedding: {
      embedder: vectors.serving ? vectors.embedder : 'none',
      dimensions: vectors.dimensions,
      runs: vectors.runs,
      passages: (vectors.progress ?? live.values).passages,
      embedded: (vectors.progress ?? live.values).embedded,
      complete: (vectors.progress ?? live.values).embedded >= (vectors.progress ?? live.values).passages,
      embedding_here: vectors.embeddingHere,
    },
    live_values_refreshed_at: live.refreshedAt === null ? null : Math.floor(live.refreshedAt / 1000),
    profiles: fixed.profiles,
    ground: fixed.ground,
    graph: fixed.graph,
    vocab: fixed.vocab,
    capabilities: fixed.capabilities,
  };
}
