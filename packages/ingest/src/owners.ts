/**
 * The owners table: who stands behind a registrable domain (a media group, a wire service, a
 * release wire, an aggregator operator, a company), read from `DATA_DIR/owners.json` when it
 * exists, over a small built-in table of well-known wire services and release wires. Owners are
 * what independence is counted by (SPEC 2.6), and their kinds feed the origin and role rules.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const OWNERS_FILE = 'owners.json';

import { REQUIRABLE_ROLES, type OwnerKind, type RequirableRole } from '@evidence/schemas';

export type { OwnerKind };
/** A role the operator may declare: any but `unknown`. */
type SourceRole = RequirableRole;

/** The operator's file, either shape: a flat `{domain: owner}` map, or this object. */
export interface OwnersFile {
  /** Registrable domain (or exact host) -> owner. */
  domains?: Record<string, string>;
  wire_services?: string[];
  release_wires?: string[];
  aggregators?: string[];
  media_groups?: string[];
  /** Registrable domain (or exact host) -> source role, overriding the derived one. */
  roles?: Record<string, SourceRole>;
}

const BUILT_IN_DOMAINS: Record<string, string> = {
  'apnews.com': 'Associated Press',
  'ap.org': 'Associated Press',
  'reuters.com': 'Reuters',
  'afp.com': 'Agence France-Presse',
  'dpa.com': 'dpa',
  'efe.com': 'EFE',
  'ansa.it': 'ANSA',
  'kyodonews.net': 'Kyodo News',
  'xinhuanet.com': 'Xinhua',
  'upi.com': 'UPI',
  'pa.media': 'PA Media',
  'prnewswire.com': 'PR Newswire',
  'businesswire.com': 'Business Wire',
  'globenewswire.com': 'GlobeNewswire',
  'prweb.com': 'PRWeb',
  'accesswire.com': 'ACCESSWIRE',
  'einpresswire.com': 'EIN Presswire',
};
const BUILT_IN_WIRE_SERVICES = ['Associated Press', 'Reuters', 'Agence France-Presse', 'AFP', 'dpa', 'EFE', 'ANSA', 'Kyodo News', 'Xinhua', 'UPI', 'PA Media'];
const BUILT_IN_RELEASE_WIRES = ['PR Newswire', 'Business Wire', 'GlobeNewswire', 'PRWeb', 'ACCESSWIRE', 'EIN Presswire'];
/** Credits a dateline or byline uses for the built-in wire services. */
const BUILT_IN_WIRE_CREDITS = ['AP', 'AFP', 'dpa', 'EFE', 'UPI', 'Reuters', 'Kyodo', 'Xinhua', 'ANSA'];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** "Global Dispatch Service" -> "GDS": how a dateline credits a wire by its initials. */
function initials(name: string): string {
  const words = name.split(/\s+/).filter((word) => /^[A-Za-z]/.test(word));
  return words.length >= 2 ? words.map((word) => word[0].toUpperCase()).join('') : '';
}

function stringList(value: unknown, field: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.trim() === '')) {
    throw new Error(`${field} must be an array of non-empty strings`);
  }
  return value as string[];
}

function stringMap(value: unknown, field: string): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${field} must be an object of strings`);
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string' || item.trim() === '') throw new Error(`${field}.${key} must be a non-empty string`);
  }
  return value as Record<string, string>;
}

/** Validate a parsed owners file (either shape) into the object shape. */
export function parseOwnersFile(value: unknown): OwnersFile {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('must be a JSON object');
  const record = value as Record<string, unknown>;
  const structured = ['domains', 'wire_services', 'release_wires', 'aggregators', 'media_groups', 'roles'];
  if (!Object.keys(record).some((key) => structured.includes(key))) return { domains: stringMap(record, 'owners') };
  const roles = stringMap(record.roles, 'roles');
  for (const [key, role] of Object.entries(roles)) {
    if (!(REQUIRABLE_ROLES as readonly string[]).includes(role)) throw new Error(`roles.${key} must be one of ${REQUIRABLE_ROLES.join(', ')}`);
  }
  return {
    domains: stringMap(record.domains, 'domains'),
    wire_services: stringList(record.wire_services, 'wire_services'),
    release_wires: stringList(record.release_wires, 'release_wires'),
    aggregators: stringList(record.aggregators, 'aggregators'),
    media_groups: stringList(record.media_groups, 'media_groups'),
    roles: roles as Record<string, SourceRole>,
  };
}

export class OwnersTable {
  private readonly domains = new Map<string, string>();
  private readonly kinds = new Map<string, OwnerKind>();
  private readonly roles = new Map<string, SourceRole>();
  private readonly wireCredits = new Set<string>();
  /** Bylines that name a known wire service ("Reuters writer ...", "(AP)"). */
  readonly wireByline: RegExp;

  constructor(file: OwnersFile = {}) {
    for (const [domain, owner] of Object.entries(BUILT_IN_DOMAINS)) this.domains.set(domain, owner);
    for (const owner of BUILT_IN_WIRE_SERVICES) this.kinds.set(owner, 'wire_service');
    for (const owner of BUILT_IN_RELEASE_WIRES) this.kinds.set(owner, 'release_wire');
    const operatorDomains = Object.entries(file.domains ?? {});
    for (const [domain, owner] of operatorDomains) this.domains.set(domain.toLowerCase(), owner);
    // An owner with several registrable domains in the operator's table is a media group,
    // unless the file says it is something else.
    const domainsPerOwner = new Map<string, number>();
    for (const [, owner] of operatorDomains) domainsPerOwner.set(owner, (domainsPerOwner.get(owner) ?? 0) + 1);
    for (const [owner, count] of domainsPerOwner) if (count >= 2) this.kinds.set(owner, 'media_group');
    for (const owner of file.media_groups ?? []) this.kinds.set(owner, 'media_group');
    for (const owner of file.aggregators ?? []) this.kinds.set(owner, 'aggregator');
    for (const owner of file.release_wires ?? []) this.kinds.set(owner, 'release_wire');
    for (const owner of file.wire_services ?? []) this.kinds.set(owner, 'wire_service');
    for (const [domain, role] of Object.entries(file.roles ?? {})) this.roles.set(domain.toLowerCase(), role);

    const wireNames: string[] = [];
    for (const [owner, kind] of this.kinds) if (kind === 'wire_service') wireNames.push(owner);
    for (const credit of BUILT_IN_WIRE_CREDITS) this.wireCredits.add(credit.toLowerCase());
    for (const name of wireNames) {
      this.wireCredits.add(name.toLowerCase());
      const abbreviation = initials(name);
      if (abbreviation.length >= 2) this.wireCredits.add(abbreviation.toLowerCase());
    }
    const names = wireNames.map(escapeRegExp).join('|');
    const credits = [...this.wireCredits].map(escapeRegExp).join('|');
    this.wireByline = new RegExp(`\\b(?:${names}) (?:writers?|staff|reporters?|correspondents?)\\b|\\((?:${credits})\\)`, 'i');
  }

  /** Read `DATA_DIR/owners.json` when present; a malformed file fails the run with its reason. */
  static load(dataDir: string): OwnersTable {
    const path = join(dataDir, OWNERS_FILE);
    if (!existsSync(path)) return new OwnersTable();
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new Error(`${path}: not valid json: ${(error as Error).message}`);
    }
    try {
      return new OwnersTable(parseOwnersFile(parsed));
    } catch (error) {
      throw new Error(`${path}: ${(error as Error).message}`);
    }
  }

  /** The owner the table knows for an exact host, its site domain or its registrable domain (derive.ts). */
  ownerOf(host: string, siteDomain: string, registrableDomain: string = siteDomain): string | undefined {
    return this.domains.get(host) ?? this.domains.get(siteDomain) ?? this.domains.get(registrableDomain);
  }

  kindOf(owner: string): OwnerKind | undefined {
    return this.kinds.get(owner);
  }

  declaredRole(host: string, registrableDomain: string): SourceRole | undefined {
    return this.roles.get(host) ?? this.roles.get(registrableDomain);
  }

  /** Whether a dateline credit ("AW", "Reuters") names a wire service the table knows. */
  isKnownWireCredit(credit: string): boolean {
    return this.wireCredits.has(credit.trim().toLowerCase());
  }
}
