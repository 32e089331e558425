/**
 * Everything a page's passages share about where they come from: host fields, owner (and the
 * owner's kind), what the page says about its origin, its content type (the record's, else
 * derived: signals/content-type.ts), its source role, and its host's graph signals. Derived once
 * per record, for JSONL and WARC pages alike; the story and origin type are per passage
 * (story-clusters.ts).
 */
import { deriveSourceRole, publicSuffixOf, urlPath, type RoleDecision } from '@evidence/schemas';
import { deriveHostFields, deriveOwner, type HostFields } from './derive.js';
import type { HostSignals } from './graph-signals.js';
import { detectPageOrigin, type PageOrigin } from './origin.js';
import type { OwnerKind, OwnersTable } from './owners.js';
import type { ContentRecord } from './record.js';
import { deriveContentType, type ContentTypeSignal } from './signals/content-type.js';
import { derivePageSignals, type PageSignals } from './signals/page-signals.js';
import type { ContentType } from './vocabulary.js';
import { countWords } from './words.js';

/**
 * How much a content type read from the text's register counts for the source role, on top of
 * its own confidence: the register says what kind of writing it is, not who publishes it (a
 * company blog reads like a forum, a shop's review like an opinion).
 */
const TEXT_GUESS_ROLE_WEIGHT = 0.5;

/**
 * Words a page's text needs before the text model's guess of its content type votes for its source
 * role: the model was trained on texts of at least about this length (99% of the labelled genre
 * texts have 19 words or more), and a host name or a URL given as a page's only text (a host
 * list ingested as records) has no register to read. Below it the role comes from host, URL
 * path, owners and origin alone, as it would with no content type.
 */
export const MIN_REGISTER_WORDS = 20;

export interface PageContext {
  hostFields: HostFields;
  owner: string;
  ownerKind?: OwnerKind;
  pageOrigin: PageOrigin;
  /** The record's content type, else the derived one. */
  contentType: ContentType;
  /** How the content type was derived; absent when the record supplied it. */
  contentTypeSignal?: ContentTypeSignal;
  role: RoleDecision;
  /** Absent for a host the link graph does not know. */
  graph?: HostSignals;
  /** Vertical, safety, host_rank, quality, authority and topics: the record's own, else derived. */
  signals: PageSignals;
}

export function describePage(record: ContentRecord, owners: OwnersTable, hostSignals: ReadonlyMap<string, HostSignals>): PageContext {
  const hostFields = deriveHostFields(record.hostname);
  const owner = deriveOwner(record.owner, hostFields, owners);
  const ownerKind = owners.kindOf(owner);
  const pageOrigin = detectPageOrigin(record.text, hostFields.registrableDomain, ownerKind, owners, record.title);
  const contentTypeSignal = record.contentType === undefined ? deriveContentType({ url: record.url, title: record.title, text: record.text }) : undefined;
  const contentType = record.contentType ?? contentTypeSignal!.value;
  const guessedFromTooLittle = contentTypeSignal?.source === 'text' && countWords(record.text) < MIN_REGISTER_WORDS;
  const role = deriveSourceRole({
    host: hostFields.host,
    registrableDomain: hostFields.registrableDomain,
    publicSuffix: publicSuffixOf(hostFields),
    path: urlPath(record.url),
    contentType: guessedFromTooLittle ? undefined : contentType,
    contentTypeWeight: contentTypeSignal === undefined ? 1 : contentTypeSignal.confidence * (contentTypeSignal.source === 'text' ? TEXT_GUESS_ROLE_WEIGHT : 1),
    ownerKind,
    declaredRole: owners.declaredRole(hostFields.host, hostFields.registrableDomain),
    pageOrigin,
    title: record.title,
    text: record.text,
  });
  const signals = derivePageSignals(record, { hostFields, publicSuffix: publicSuffixOf(hostFields), role, ownerKind, hostSignals });
  const context: PageContext = { hostFields, owner, pageOrigin, contentType, role, signals };
  if (contentTypeSignal !== undefined) context.contentTypeSignal = contentTypeSignal;
  if (ownerKind !== undefined) context.ownerKind = ownerKind;
  const graph = hostSignals.get(hostFields.host);
  if (graph !== undefined) context.graph = graph;
  return context;
}
