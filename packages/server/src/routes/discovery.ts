/**
 * The open discovery routes (SPEC 4.10): no key, no credits, and no work for the search pool,
 * so they answer while it is saturated. Everything but /describe's live lists is built at start;
 * /describe reads those lists from a cache refreshed in the background.
 */
import type { HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { errors } from '@evidence/schemas';
import { describeDocument } from '../discovery/describe.js';
import { isGuideSlug, loadDiscoveryDocuments } from '../discovery/documents.js';
import { LiveVocabularyCache, liveVocabulary } from '../discovery/live-vocabulary.js';
import { buildOpenApi } from '../discovery/openapi.js';
import { PROFILE_NAMES, toolListingDocument } from '../discovery/tools.js';
import { respond, respondError, type ResponseState } from '../http/respond.js';
import type { Services } from '../services.js';

const JSON_TYPE = 'application/json';
const PLAIN_TEXT = 'text/plain; charset=utf-8';
const MARKDOWN = 'text/markdown; charset=utf-8';

/** How old the live lists of /describe may get before a request starts a background refresh. */
const LIVE_VOCABULARY_MAX_AGE_MS = 60_000;

function answer(res: HttpResponse, status: number, contentType: string, body: string): void {
  const state: ResponseState = { aborted: false };
  respond(res, state, status, contentType, body);
}

export function registerDiscovery(app: TemplatedApp, services: Services): void {
  const documents = loadDiscoveryDocuments();
  // Built now rather than on the first request: zod to JSON Schema takes tens of milliseconds,
  // which must not land on the event loop while serving.
  const openApi = JSON.stringify(buildOpenApi());
  const toolListing = new Map<string | null, string>(
    [null, ...PROFILE_NAMES].map((profile) => [profile, JSON.stringify(toolListingDocument(profile))]),
  );
  const vocabulary = new LiveVocabularyCache(() => liveVocabulary(services), LIVE_VOCABULARY_MAX_AGE_MS);
  vocabulary.refresh();
  describeDocument(vocabulary.current()); // computes the static part now, for the same reason

  app.get('/describe', (res) => {
    answer(res, 200, JSON_TYPE, JSON.stringify(describeDocument(vocabulary.current())));
  });

  app.get('/openapi.json', (res) => {
    answer(res, 200, JSON_TYPE, openApi);
  });

  app.get('/mcp/tools.json', (res, req) => {
    const profile = new URLSearchParams(req.getQuery() ?? '').get('profile');
    const body = toolListing.get(profile);
    if (body === undefined) {
      respondError(res, { aborted: false }, errors.badParameter('profile', `one of ${PROFILE_NAMES.join(', ')}`));
      return;
    }
    answer(res, 200, JSON_TYPE, body);
  });

  app.get('/llms.txt', (res) => {
    answer(res, 200, PLAIN_TEXT, documents.llmsTxt);
  });

  app.get('/skill.md', (res) => {
    answer(res, 200, MARKDOWN, documents.skill);
  });

  app.get('/guides/:slug', (res, req) => {
    // The slug is looked up in a fixed table; it is never part of a path on disk.
    const slug = req.getParameter(0) ?? '';
    if (!isGuideSlug(slug)) {
      answer(res, 404, PLAIN_TEXT, 'not found: guides are search-recipes, graph-recipes and agent-skill');
      return;
    }
    answer(res, 200, MARKDOWN, documents.guides[slug]);
  });
}
