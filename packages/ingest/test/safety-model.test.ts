/**
 * The safety signal's host-name model (src/signals/safety-model.ts, weights from
 * `npm run train:safety`): made-up but realistic host names, so that the tests assert how names
 * are read rather than pin the labelled set's hosts.
 */
import { describe, expect, it } from 'vitest';
import { deriveSafety, EXPLICIT_AT, hostModelProbability, urlPoints } from '../src/signals/safety.js';
import { hostName, lexiconWords } from '../src/signals/safety-model.js';

const verdict = (host: string, path = '/'): string => deriveSafety({ host, path, title: '', text: '' }).value;

describe('safety host-name model', () => {
  it('calls explicit the adult names the keyword rules cannot read, and says the model decided', () => {
    for (const host of ['fuqvids.com', 'prnhdclips.com', 'squirtzone.net', 'javstreamz.com']) {
      expect(urlPoints(host).points, host).toBeLessThan(EXPLICIT_AT);
      expect(verdict(host), host).toBe('explicit');
      expect(deriveSafety({ host, path: '/', title: '', text: '' }).reason, host).toMatch(/^host model/);
    }
  });

  it('does not read explicit words inside ordinary names, nor judge government and university hosts by their names', () => {
    for (const host of ['youtube.com', 'github.com', 'hotels.com', 'analyticsdaily.com', 'www.essex.ac.uk', 'sussex.ac.uk', 'cumbria.gov.uk', 'middlesex.gov.uk']) {
      expect(verdict(host), host).toBe('safe');
    }
    expect(hostModelProbability('cumberlandtimes.com')).toBeLessThan(0.1);
  });

  it('still reads an explicit path on a university host', () => {
    expect(verdict('students.example.ac.uk', '/porn/gallery')).toBe('explicit');
  });

  it('keeps lingerie shops and sexual-health education safe', () => {
    for (const host of ['lingeriediva.com', 'sexualhealthclinic.org', 'naughtyknickersboutique.co.uk']) expect(verdict(host), host).toBe('safe');
  });

  it('segments a host name against the lexicon, longest word first', () => {
    expect(hostName('www.spicytranny.com')).toBe('spicytranny');
    expect(hostName('realboys.blogspot.com')).toBe('realboys.blogspot');
    expect(lexiconWords('spicytranny')).toContain('tranny');
    expect(lexiconWords('efappy')).toContain('fap');
    expect(lexiconWords('analyticsdaily')).not.toContain('anal');
    expect(lexiconWords('documentcloud')).not.toContain('cum');
  });
});
