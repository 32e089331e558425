/**
 * The MCP tools, generated from the catalog: one tool per catalog entry, its input schema from
 * the capability's parameter schema (aliases applied) and its output schema from the
 * capability's response schema. tools/list, `GET /mcp/tools.json`, /describe and the stdio
 * server all read the toolsets built here, so a capability added to the catalog is a tool
 * everywhere at once.
 *
 * Profiles are named subsets, defined by tool names so that a profile can name tools that are
 * not in the catalog yet: it lists those of them that exist.
 */
import { Toolset, type ToolDefinition, type ToolInvoker } from '@evidence/mcp';
import type { AuthenticatedCaller } from '@evidence/stores';
import { errors, isAccessRefusal, ServiceError } from '@evidence/schemas';
import { executeCapability } from './capability.js';
import { CATALOG, type CatalogEntry } from './catalog.js';
import type { Services } from './services.js';
import type { RequestReport } from './observability/logging.js';

export interface ToolProfile {
  description: string;
  /** Tool names, in listing order; names not in the catalog are skipped. */
  tools: readonly string[];
}

export const TOOL_PROFILES: Readonly<Record<string, ToolProfile>> = {
  grounding: {
    description:
      'The two tools an agent needs to ground an answer: ground (the smallest defensible evidence set with a coverage receipt) ' +
      'and get_document (the full text of one piece of evidence).',
    tools: ['ground', 'get_document'],
  },
};

export const PROFILE_NAMES = Object.keys(TOOL_PROFILES);

function toolOf(entry: CatalogEntry): ToolDefinition {
  return {
    name: entry.tool.name,
    description: entry.tool.description,
    params: entry.capability.params,
    response: entry.capability.response,
    argumentAliases: entry.tool.argumentAliases,
  };
}

/** The catalog entry behind each tool name. */
function catalogEntryOf(toolName: string): CatalogEntry | undefined {
  return CATALOG.find((entry) => entry.tool.name === toolName);
}

/** Tool names of a profile that the catalog holds today. */
export function availableTools(profile: ToolProfile): string[] {
  return profile.tools.filter((name) => catalogEntryOf(name) !== undefined);
}

function buildToolset(profileName: string | null): Toolset {
  if (profileName === null) return new Toolset(CATALOG.map(toolOf));
  const profile = TOOL_PROFILES[profileName];
  return new Toolset(availableTools(profile).map((name) => toolOf(catalogEntryOf(name)!)));
}

const toolsets = new Map<string | null, Toolset>();

/**
 * The toolset of a profile (null: every tool), built once: the catalog does not change while
 * the process runs. An unknown profile is a 400 that names the parameter.
 */
export function toolsetFor(profileName: string | null): Toolset {
  if (profileName !== null && !Object.hasOwn(TOOL_PROFILES, profileName)) {
    throw errors.badParameter('profile', `one of ${PROFILE_NAMES.join(', ')}`);
  }
  let toolset = toolsets.get(profileName);
  if (!toolset) {
    toolset = buildToolset(profileName);
    toolsets.set(profileName, toolset);
  }
  return toolset;
}

/** What `GET /mcp/tools.json` answers: the tools/list result, naming the profile when one was chosen. */
export function toolListingDocument(profileName: string | null): { profile?: string; tools: unknown[] } {
  const listing = toolsetFor(profileName).listing;
  return profileName === null ? listing : { profile: profileName, tools: listing.tools };
}

/**
 * Runs a tool as its REST route would: `executeCapability` with the same caller, so the body and
 * the charge are the REST ones. `onAccessError` sees the errors that belong to the transport
 * (401, 402, 429) before they become a tool result.
 */
export function catalogToolInvoker(
  services: Services,
  caller: AuthenticatedCaller,
  onAccessError?: (error: ServiceError) => void,
  report?: RequestReport,
): ToolInvoker {
  return async (tool, parameters) => {
    const entry = catalogEntryOf(tool.name);
    if (!entry) throw errors.notFound(`no tool named ${tool.name}`);
    try {
      const outcome = await executeCapability(entry.capability, parameters, caller, services, report);
      return outcome.body;
    } catch (error) {
      if (onAccessError && isAccessError(error)) onAccessError(error);
      throw error;
    }
  };
}

/** Errors about the caller's key or allowance rather than the call: 401, 402 and the 429s (the error table's `access`). */
export function isAccessError(error: unknown): error is ServiceError {
  return error instanceof ServiceError && isAccessRefusal(error.kind);
}
