/**
 * The markdown and text documents of the open discovery routes: /llms.txt, /skill.md and the
 * fixed table of /guides/{slug}. They are files beside this module (`documents/`), read once at
 * start: `tsc -b` copies no assets, so they are read from the package's `src`, which resolves to
 * the same directory from `src/` and from `dist/`. A slug is only ever a key of GUIDES, never a
 * path, so nothing a caller sends reaches the file system.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CATALOG } from '../catalog.js';
import { ACCOUNT_ROUTE, catalogRoutes } from './documented-routes.js';

const DOCUMENTS_DIRECTORY = fileURLToPath(new URL('../../src/discovery/documents/', import.meta.url));

export const GUIDES = {
  'search-recipes': 'search-recipes.md',
  'graph-recipes': 'graph-recipes.md',
  // The agent skill is one document, served both as /skill.md and as this guide.
  'agent-skill': 'skill.md',
} as const satisfies Record<string, string>;

export type GuideSlug = keyof typeof GUIDES;

export function isGuideSlug(slug: string): slug is GuideSlug {
  return Object.hasOwn(GUIDES, slug);
}

/** The tools SPEC 4.9 names; those not in the catalog yet are listed as coming later. */
const CONTRACT_TOOLS = ['web_search', 'get_document', 'similar', 'why_not', 'browse', 'assemble_context', 'ground', 'evidence_changes'];

/** Catalog-generated parts, so the documents list what is served without being edited. */
function fillPlaceholders(text: string): string {
  const routes = [...catalogRoutes(), ACCOUNT_ROUTE]
    .map((route) => `- ${route.method} ${route.path} (${route.cost} credit${route.cost === 1 ? '' : 's'}${route.tool ? `; MCP tool ${route.tool}` : ''}): ${route.summary.replace(/\s*\(\d+ credits?\)$/, '')}`)
    .join('\n');
  const served = new Set(CATALOG.map((entry) => entry.tool.name));
  const tools = [...served].map((name) => `\`${name}\``).join(', ');
  const later = CONTRACT_TOOLS.filter((name) => !served.has(name)).map((name) => `\`${name}\``).join(', ') || 'none';
  return text.replaceAll('{{routes}}', routes).replaceAll('{{tools}}', tools).replaceAll('{{later_tools}}', later);
}

export interface DiscoveryDocuments {
  llmsTxt: string;
  skill: string;
  guides: Record<GuideSlug, string>;
}

export function loadDiscoveryDocuments(directory: string = DOCUMENTS_DIRECTORY): DiscoveryDocuments {
  const read = (file: string) => fillPlaceholders(readFileSync(`${directory}/${file}`, 'utf8'));
  const guides = Object.fromEntries(Object.entries(GUIDES).map(([slug, file]) => [slug, read(file)])) as Record<GuideSlug, string>;
  return { llmsTxt: read('llms.txt'), skill: read('skill.md'), guides };
}
