/**
 * What every derived signal returns: the value, where it came from, how sure the signal is and
 * why, so a caller can tell a record's own value from a derivation and a derivation from the
 * default it fell back to. SPEC has a field for the confidence of one signal only (source_role's
 * `role_confidence`); for the others the decision stays inside ingest (and its tests and bench).
 */
export type SignalSource = 'record' | 'derived' | 'default';

export interface Derived<T> {
  value: T;
  source: SignalSource;
  /** 0..1: 1 for a record's own value; for a derivation, how sure the signal is. */
  confidence: number;
  /** A short reason: which cue decided, for tests and for an operator reading the bench. */
  reason: string;
}

/** The record's own value, which always wins over a derivation. */
export function fromRecord<T>(value: T): Derived<T> {
  return { value, source: 'record', confidence: 1, reason: 'given by the record' };
}
