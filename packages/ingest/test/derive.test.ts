import { describe, expect, it } from 'vitest';
import { deriveHostFields, deriveOwner } from '../src/derive.js';
import { detectLanguage, UNDETERMINED_LANGUAGE } from '../src/language.js';
import { normaliseStoryText, storyIdFor } from '../src/story.js';
import { countWords } from '../src/words.js';

describe('deriveHostFields', () => {
  it('takes the registrable domain from the public suffix list', () => {
    expect(deriveHostFields('news.bbc.co.uk')).toEqual({ host: 'news.bbc.co.uk', tld: 'uk', registrableDomain: 'bbc.co.uk' });
    expect(deriveHostFields('www.example.com')).toEqual({ host: 'www.example.com', tld: 'com', registrableDomain: 'example.com' });
  });

  it('falls back to the hostname when there is no registrable domain', () => {
    expect(deriveHostFields('localhost')).toEqual({ host: 'localhost', tld: 'localhost', registrableDomain: 'localhost' });
    expect(deriveHostFields('192.168.0.1')).toEqual({ host: '192.168.0.1', tld: '', registrableDomain: '192.168.0.1' });
  });

  it('defaults the owner to the registrable domain', () => {
    expect(deriveOwner(undefined, 'bbc.co.uk')).toBe('bbc.co.uk');
    expect(deriveOwner('BBC', 'bbc.co.uk')).toBe('BBC');
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
