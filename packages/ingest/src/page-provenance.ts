/**
 * Everything a page's passages share about where they come from: host fields, owner (and the
 * owner's kind), what the page says about its origin, its source role, and its host's graph
 * signals. Derived once per record; the story and origin type are per passage (story-clusters.ts).
 */
import { deriveSourceRole, publicSuffixOf, urlPath, type RoleDecision } from '@evidence/schemas';
import { deriveHostFields, deriveOwner, type HostFields } from './derive.js';
import type { HostSignals } from './graph-signals.js';
import { detectPageOrigin, type PageOrigin } from './origin.js';
import type { OwnerKind, OwnersTable } from './owners.js';
import type { ContentRecord } from './record.js';
import { derivePageSignals, type PageSignals } from './signals/page-signals.js';

export interface PageContext {
  hostFields: HostFields;
  owner: string;
  ownerKind?: OwnerKind;
  pageOrigin: PageOrigin;
  role: RoleDecision;
  /** Absent for a host the link graph does not know. */
  graph?: HostSignals;
  /** Vertical, safety, host_rank, quality, authority and topics: the record's own, else derived. */
  signals: PageSignals;
}

export function describePage(record: ContentRecord, owners: OwnersTable, hostSignals: ReadonlyMap<string, HostSignals>): PageContext {
  const hostFields = deriveHostFields(record.hostname);
  const owner = deriveOwner(record.owner, hostFields.registrableDomain, owners, hostFields.host);
  const ownerKind = owners.kindOf(owner);
  const pageOrigin = detectPageOrigin(record.text, hostFields.registrableDomain, ownerKind, owners);
  const role = deriveSourceRole({
    host: hostFields.host,
    registrableDomain: hostFields.registrableDomain,
    publicSuffix: publicSuffixOf(hostFields),
    path: urlPath(record.url),
    contentType: record.contentType,
    ownerKind,
    declaredRole: owners.declaredRole(hostFields.host, hostFields.registrableDomain),
    pageOrigin,
  });
  const signals = derivePageSignals(record, { hostFields, publicSuffix: publicSuffixOf(hostFields), role, ownerKind, hostSignals });
  const context: PageContext = { hostFields, owner, pageOrigin, role, signals };
  if (ownerKind !== undefined) context.ownerKind = ownerKind;
  const graph = hostSignals.get(hostFields.host);
  if (graph !== undefined) context.graph = graph;
  return context;
}
