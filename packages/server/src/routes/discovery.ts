/**
 * The open discovery routes (SPEC 4.10): no key, no credits, and no work for the search pool,
 * so they answer while it is saturated. Everything but /describe's live lists is built at start;
 * /describe reads those lists from a cache refreshed in the background.
 */
import { errors } from '@evidence/schemas';
import { describeDocument } from '../discovery/describe.js';
import { isGuideSlug, loadDiscoveryDocuments } from '../discovery/documents.js';
import { LiveVocabularyCache, liveVocabulary } from '../discovery/live-vocabulary.js';
import { buildOpenApi } from '../discovery/openapi.js';
import { PROFILE_NAMES, toolListingDocument } from '../mcp-tools.js';
import { errorAnswer, textAnswer, type HttpAnswer } from '../http/answer.js';
import type { Router } from '../http/router.js';
import type { Services } from '../services.js';

const JSON_TYPE = 'application/json';
const MARKDOWN = 'text/markdown; charset=utf-8';

/** How old the live lists of /describe may get before a request starts a background refresh. */
const LIVE_VOCABULARY_MAX_AGE_MS = 60_000;

function answer(contentType: string, body: string): HttpAnswer {
  return { status: 200, contentType, body, headers: {} };
}

export function registerDiscovery(router: Router, services: Services): void {
  const documents = loadDiscoveryDocuments();
  // Built now rather than on the first request: zod to JSON Schema takes tens of milliseconds,
  // which must not land on the event loop while serving.
  const openApi = JSON.stringify(buildOpenApi());
  const toolListing = new Map<string | null, string>(
    [null, ...PROFILE_NAMES].map((profile) => [profile, JSON.stringify(toolListingDocument(profile))]),
  );
  const vocabulary = new LiveVocabularyCache(() => liveVocabulary(services), LIVE_VOCABULARY_MAX_AGE_MS);
  vocabulary.refresh();
  const vectors = () => {
    const status = services.vectors.background?.status();
    return {
      embedder: services.vectors.spec.name,
      dimensions: services.vectors.spec.dimensions,
      runs: services.vectors.spec.runs,
      serving: services.vectors.serving,
      embeddingHere: status?.running ?? false,
      progress: status?.running && status.reported ? { passages: status.passages, embedded: status.embedded } : null,
    };
  };
  describeDocument(vocabulary.current(), vectors()); // computes the static part now, for the same reason

  router.get('/describe', () => answer(JSON_TYPE, JSON.stringify(describeDocument(vocabulary.current(), vectors()))));

  router.get('/openapi.json', () => answer(JSON_TYPE, openApi));

  router.get('/mcp/tools.json', ({ snapshot }) => {
    const body = toolListing.get(snapshot.query.profile ?? null);
    if (body === undefined) return errorAnswer(errors.badParameter('profile', `one of ${PROFILE_NAMES.join(', ')}`));
    return answer(JSON_TYPE, body);
  });

  router.get('/llms.txt', () => textAnswer(200, documents.llmsTxt));

  router.get('/skill.md', () => answer(MARKDOWN, documents.skill));

  router.get('/guides/:slug', ({ snapshot }) => {
    // The slug is looked up in a fixed table; it is never part of a path on disk.
    const slug = snapshot.parameters[0] ?? '';
    if (!isGuideSlug(slug)) return textAnswer(404, 'not found: guides are search-recipes, graph-recipes and agent-skill');
    return answer(MARKDOWN, documents.guides[slug]);
  });
}
