import { describe, expect, it } from 'vitest';
import { deriveHostFields, deriveOwner } from '../src/derive.js';
import { OwnersTable } from '../src/owners.js';
import { detectLanguage, UNDETERMINED_LANGUAGE } from '../src/language.js';
import { normaliseStoryText, storyIdFor } from '../src/story.js';
import { countWords } from '../src/words.js';

describe('deriveHostFields', () => {
  it('takes the registrable domain from the public suffix list', () => {
    expect(deriveHostFields('news.bbc.co.uk')).toEqual({ host: 'news.bbc.co.uk', tld: 'uk', registrableDomain: 'bbc.co.uk', siteDomain: 'bbc.co.uk' });
    expect(deriveHostFields('www.example.com')).toEqual({ host: 'www.example.com', tld: 'com', registrableDomain: 'example.com', siteDomain: 'example.com' });
  });

  it('falls back to the hostname when there is no registrable domain', () => {
    expect(deriveHostFields('localhost')).toEqual({ host: 'localhost', tld: 'localhost', registrableDomain: 'localhost', siteDomain: 'localhost' });
    expect(deriveHostFields('192.168.0.1')).toEqual({ host: '192.168.0.1', tld: '', registrableDomain: '192.168.0.1', siteDomain: '192.168.0.1' });
  });

  it('gives each site under a registry of separate owners a site domain of its own (real hosts)', () => {
    // The public suffix list's private section (github.io, blogspot.com) and platforms it does not list.
    expect(deriveHostFields('caolan.github.io')).toEqual({ host: 'caolan.github.io', tld: 'io', registrableDomain: 'github.io', siteDomain: 'caolan.github.io' });
    expect(deriveHostFields('cbonte.github.io').siteDomain).toBe('cbonte.github.io');
    expect(deriveHostFields('4qconditioning.blogspot.com')).toMatchObject({ registrableDomain: 'blogspot.com', siteDomain: '4qconditioning.blogspot.com' });
    expect(deriveHostFields('2gewinnt.wordpress.com')).toMatchObject({ tld: 'com', registrableDomain: 'wordpress.com', siteDomain: '2gewinnt.wordpress.com' });
    expect(deriveHostFields('andreabottlinger.wordpress.com').siteDomain).toBe('andreabottlinger.wordpress.com');
    expect(deriveHostFields('scp-wiki.wikidot.com').siteDomain).toBe('scp-wiki.wikidot.com');
    // Free personal-site hosts from the same open-platform table host_rank and source_role read.
    expect(deriveHostFields('someone.tripod.com').siteDomain).toBe('someone.tripod.com');
    expect(deriveHostFields('maque.free.fr').siteDomain).toBe('maque.free.fr');
    // The platforms' own sites, and a deeper host, belong to the site right under the registry.
    expect(deriveHostFields('www.wordpress.com').siteDomain).toBe('wordpress.com');
    expect(deriveHostFields('wordpress.com').siteDomain).toBe('wordpress.com');
    expect(deriveHostFields('en.support.wordpress.com').siteDomain).toBe('support.wordpress.com');
    expect(deriveHostFields('www.bbc.co.uk').siteDomain).toBe('bbc.co.uk');
  });

  it('defaults the owner to the site domain: unrelated blogs are two owners, one publisher\'s hosts one', () => {
    const owner = (host: string, owners?: OwnersTable) => deriveOwner(undefined, deriveHostFields(host), owners);
    expect(owner('news.bbc.co.uk')).toBe('bbc.co.uk');
    expect(owner('www.bbc.co.uk')).toBe('bbc.co.uk');
    expect(owner('2gewinnt.wordpress.com')).not.toBe(owner('andreabottlinger.wordpress.com'));
    expect(owner('caolan.github.io')).toBe('caolan.github.io');
    expect(owner('caolan.github.io')).not.toBe(owner('cbonte.github.io'));
    expect(deriveOwner('BBC', deriveHostFields('news.bbc.co.uk'))).toBe('BBC');
    // The operator's table still names owners, by host, site or registrable domain.
    const owners = new OwnersTable({ domains: { 'bbc.co.uk': 'BBC', 'caolan.github.io': 'Caolan McMahon' } });
    expect(owner('news.bbc.co.uk', owners)).toBe('BBC');
    expect(owner('caolan.github.io', owners)).toBe('Caolan McMahon');
    expect(owner('cbonte.github.io', owners)).toBe('cbonte.github.io');
  });
});

describe('detectLanguage', () => {
  it('detects German, French, Spanish, Italian, Portuguese, Dutch and English', () => {
    expect(detectLanguage('Der schnelle braune Fuchs springt über den faulen Hund und läuft dann in den Wald, wo er sich vor dem Jäger versteckt.')).toBe('de');
    expect(detectLanguage('Le gouvernement a annoncé une nouvelle réforme des retraites qui sera présentée au parlement dans les prochaines semaines.')).toBe('fr');
    expect(detectLanguage('El gobierno anunció una nueva reforma de las pensiones que será presentada en el parlamento durante las próximas semanas.')).toBe('es');
    expect(detectLanguage('Il governo ha annunciato una nuova riforma delle pensioni che sarà presentata al parlamento nelle prossime settimane.')).toBe('it');
    expect(detectLanguage('O governo anunciou uma nova reforma das pensões que será apresentada ao parlamento nas próximas semanas.')).toBe('pt');
    expect(detectLanguage('De regering heeft een nieuwe hervorming van de pensioenen aangekondigd die in de komende weken aan het parlement wordt voorgelegd.')).toBe('nl');
    expect(detectLanguage('The government announced a new pension reform that will be presented to parliament in the coming weeks.')).toBe('en');
  });

  it('falls back to trigram statistics for other languages', () => {
    expect(detectLanguage('Polska jest krajem w Europie Środkowej. Stolicą kraju jest Warszawa, a największe miasta to Kraków, Łódź i Wrocław.')).toBe('pl');
  });

  it('answers und when the text is too short to tell', () => {
    expect(detectLanguage('ok')).toBe(UNDETERMINED_LANGUAGE);
  });
});

describe('storyIdFor', () => {
  it('clusters passages that differ only in case, punctuation and spacing', () => {
    expect(normaliseStoryText('  Hello,   World!\nIt’s  here. ')).toBe('hello world its here');
    expect(storyIdFor('Hello, world! It is here.')).toBe(storyIdFor('hello world   it is HERE'));
    expect(storyIdFor('Hello, world! It is here.')).not.toBe(storyIdFor('Hello, world! It is there.'));
    expect(storyIdFor('anything')).toMatch(/^s[0-9a-f]{16}$/);
  });
});

describe('countWords', () => {
  it('counts runs of non-space', () => {
    expect(countWords('  one two\tthree\nfour\u00a0five  ')).toBe(5);
    expect(countWords('')).toBe(0);
  });
});
