/**
 * The source_role trainer on real labelled hosts (`../shared/data/signals/source_role`, the
 * development half; skipped when the data is absent): the fit is deterministic and its weights
 * file names no labelled host, the model is asked only where the host rules say nothing, and the
 * committed model is a fallback whose vote never outweighs a lone rule.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveHostFields } from '@evidence/ingest';
import { hostRoleVotes, publicSuffixOf, ROLE_MODEL, roleHostFeatures, roleProbabilities } from '@evidence/schemas';
import { halfOf, readJsonl, SIGNALS_DATA } from '../src/signals/halves.js';
import { decide, exampleOf, fitRoleModel, render, type LabelledHost } from '../src/signals/train-source-role.js';

const hasData = existsSync(join(SIGNALS_DATA, 'source_role', 'hosts.jsonl'));

describe.skipIf(!hasData)('train:source-role', () => {
  const tuning = hasData ? (readJsonl<LabelledHost>('source_role/hosts.jsonl') ?? []).filter((host) => halfOf(host.host, 1) === 'tune' && host.labels?.role_ambiguous !== true) : [];
  const sample = tuning.filter((_, at) => at % 6 === 0).map(exampleOf);

  it('fits the same weights twice and writes no labelled host into them', () => {
    const first = render({ ...fitRoleModel(sample, { l2: 0.001, balance: 0, rounds: 30 }), gate: 0, threshold: 0.6, weight: 1 }, sample.length);
    const second = render({ ...fitRoleModel(sample, { l2: 0.001, balance: 0, rounds: 30 }), gate: 0, threshold: 0.6, weight: 1 }, sample.length);
    expect(second).toBe(first);
    expect(sample.filter((item) => first.includes(item.host))).toEqual([]);
  });

  it('asks the model only where no rule votes, and falls back to secondary where it is unsure', () => {
    const settings = { gate: 0, threshold: 0.6, weight: 1 };
    const voted = sample.find((item) => item.rules.length > 0 && item.rules[0].role === 'official');
    const silent = sample.find((item) => item.rules.length === 0 && item.askable);
    expect(voted).toBeDefined();
    expect(silent).toBeDefined();
    if (voted === undefined || silent === undefined) return;
    // A model sure of ugc does not move a host a rule calls official.
    expect(decide(voted, [0, 0, 0, 1], settings)).toBe('official');
    expect(decide(silent, [0, 0, 0, 1], settings)).toBe('ugc');
    expect(decide(silent, [0.2, 0.2, 0.3, 0.3], settings)).toBe('secondary');
  });

  it('ships a fallback: real hosts the rules vote on keep the rules\' votes, and a name-only vote weighs under 1', () => {
    expect(ROLE_MODEL.gate).toBe(0);
    expect(ROLE_MODEL.weight).toBeLessThanOrEqual(1);
    for (const item of sample) {
      const fields = deriveHostFields(item.host);
      const votes = hostRoleVotes(fields.host, fields.registrableDomain, publicSuffixOf(fields));
      if (item.rules.length > 0) expect(votes).toEqual(item.rules);
      else for (const vote of votes) expect(vote.weight).toBeLessThanOrEqual(1);
    }
    // The committed model gives probabilities over the four roles.
    const probabilities = roleProbabilities(ROLE_MODEL, roleHostFeatures('example.org', 'example.org', 'org'));
    expect(probabilities).toHaveLength(4);
    expect(probabilities.reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 6);
  });
});
