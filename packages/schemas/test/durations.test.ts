import { describe, expect, it } from 'vitest';
import { ChangesParamsSchema, formatDuration, GroundParamsSchema, parseDurationSeconds, parseParams, resolveSince } from '@evidence/schemas';

const NOW = 1_795_000_000;

describe('durations', () => {
  it('parses seconds and units', () => {
    expect(parseDurationSeconds('90')).toBe(90);
    expect(parseDurationSeconds('90s')).toBe(90);
    expect(parseDurationSeconds('30m')).toBe(1800);
    expect(parseDurationSeconds('6h')).toBe(21_600);
    expect(parseDurationSeconds('7D')).toBe(604_800);
    expect(parseDurationSeconds('2w')).toBe(1_209_600);
    expect(parseDurationSeconds(3600)).toBe(3600);
    for (const bad of ['', 'soon', '1y', '1.5h', '-3', '3 days', 1.5, -1]) expect(parseDurationSeconds(bad), String(bad)).toBeNull();
  });

  it('formats the shortest exact unit', () => {
    expect(formatDuration(604_800)).toBe('1w');
    expect(formatDuration(86_400 * 3)).toBe('3d');
    expect(formatDuration(5400)).toBe('90m');
    expect(formatDuration(90)).toBe('90s');
  });

  it('resolves since: absolute from 10^9 up, seconds ago below, durations ago; only in the past', () => {
    expect(resolveSince(String(NOW - 100), NOW)).toBe(NOW - 100);
    expect(resolveSince(1_000_000_000, NOW)).toBe(1_000_000_000);
    expect(resolveSince('999999999', NOW)).toBe(NOW - 999_999_999);
    expect(resolveSince('3600', NOW)).toBe(NOW - 3600);
    expect(resolveSince('1d', NOW)).toBe(NOW - 86_400);
    expect(resolveSince('12h ago', NOW)).toBe(NOW - 43_200);
    expect(resolveSince('2w', NOW)).toBe(NOW - 1_209_600);
    for (const bad of ['0', '0s', String(NOW), String(NOW + 10), 'tomorrow', '', '-5', '1y']) expect(resolveSince(bad, NOW), bad).toBeNull();
  });

  it('turns bad values into a 400 naming the parameter', () => {
    expect(() => parseParams(ChangesParamsSchema, { objective: 'x', since: 'tomorrow' })).toThrow(/^invalid parameter since: an instant in the past/);
    expect(() => parseParams(ChangesParamsSchema, { objective: 'x' })).toThrow(/^invalid parameter since: required/);
    expect(() => parseParams(GroundParamsSchema, { objective: 'x', max_age: '0' })).toThrow(/^invalid parameter max_age: a positive duration/);
    expect(parseParams(GroundParamsSchema, { objective: 'x', max_age: '7d' }).max_age).toBe(604_800);
  });

  it('applies the ground defaults and splits known_urls only where a URL starts', () => {
    const ground = parseParams(GroundParamsSchema, { objective: ' x ' });
    expect(ground).toMatchObject({ objective: 'x', min_independent_origins: 2, require_role: ['primary', 'official'], token_budget: 3000, mode: 'hybrid', safe: true, strip_instruction_like: false });
    expect(parseParams(GroundParamsSchema, { objective: 'x', require_role: '' }).require_role).toEqual([]);
    expect(parseParams(GroundParamsSchema, { objective: 'x', require_role: ['ugc', 'ugc'] }).require_role).toEqual(['ugc']);
    const changes = parseParams(ChangesParamsSchema, { objective: 'x', since: '1d', known_urls: 'https://a.example/x?ids=1,2,https://b.example/' });
    expect(changes.known_urls).toEqual(['https://a.example/x?ids=1,2', 'https://b.example/']);
  });
});
