/**
 * authority: the publisher's standing as a source on its own subject (`high`, `medium`), derived
 * only where the host or the page's source role gives grounds, absent otherwise (SPEC 2.1: an
 * optional field; the `authority` filter and /describe list only what passages carry):
 *
 * - `high`: a governmental, military, intergovernmental or academic host (the host-rank priors'
 *   public suffixes), or a page whose source role is `official` with confidence at least
 *   MIN_ROLE_CONFIDENCE (a regulator, court or university the role classifier recognised);
 * - `medium`: a page whose source role is `primary` with that confidence (an organisation's own
 *   site, documentation, papers, code: authoritative on itself), or a wire service's own host.
 *
 * What it cannot know: which news outlets or reference works deserve `high`; that is an
 * editorial judgement the service does not ship. Nothing is `low`: lack of grounds is absence.
 */
import { fromRecord, type Derived } from './derived.js';
import type { HostPriorKind } from './host-rank.js';

export const MIN_ROLE_CONFIDENCE = 0.5;

export interface AuthorityInput {
  priorKind: HostPriorKind;
  role: string;
  roleConfidence: number;
  /** The kind of the page's owner in the owners table (`wire_service` for a wire service), when known. */
  ownerKind?: string;
}

export function deriveAuthority(input: AuthorityInput, declared?: string): Derived<string | undefined> {
  if (declared !== undefined) return fromRecord(declared);
  if (input.priorKind === 'official' || input.priorKind === 'academic') return { value: 'high', source: 'derived', confidence: 0.8, reason: `${input.priorKind} host` };
  if (input.role === 'official' && input.roleConfidence >= MIN_ROLE_CONFIDENCE) return { value: 'high', source: 'derived', confidence: input.roleConfidence, reason: 'official source role' };
  if (input.role === 'primary' && input.roleConfidence >= MIN_ROLE_CONFIDENCE) return { value: 'medium', source: 'derived', confidence: input.roleConfidence, reason: 'primary source role' };
  if (input.ownerKind === 'wire_service') return { value: 'medium', source: 'derived', confidence: 0.7, reason: 'wire service host' };
  return { value: undefined, source: 'default', confidence: 0, reason: 'no grounds' };
}
