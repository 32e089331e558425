/**
 * A crawled page whose WARC-Target-URI is an IRI written as raw UTF-8 (as crawlers write the
 * address of a page whose path is not ASCII): ingest stores it under that URL, and why_not finds
 * it by the URL as a person writes it and as a browser percent-encodes it. Real ingest of a WARC
 * file (the CLI), real server: the fixture's startIngestedServer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngestedServer, type IngestedServer } from './fixture.js';

const IRI = 'https://de.wikipedia.org/wiki/Köln_Hauptbahnhof';
let dataDir: string;
let server: IngestedServer;

function responseRecord(uri: string, html: string): Buffer {
  const body = Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=UTF-8\r\n\r\n${html}`, 'utf8');
  const header = [
    'WARC/1.0',
    'WARC-Type: response',
    'WARC-Date: 2024-05-01T10:00:00Z',
    'WARC-Record-ID: <urn:uuid:b1f3c6b0-4e1a-4c3e-9a57-1f4f2b6f3a01>',
    `Content-Length: ${body.length}`,
    'Content-Type: application/http; msgtype=response',
    'WARC-IP-Address: 185.15.59.224',
    `WARC-Target-URI: ${uri}`,
    'WARC-Identified-Payload-Type: text/html',
  ].join('\r\n');
  return gzipSync(Buffer.concat([Buffer.from(`${header}\r\n\r\n`, 'utf8'), body, Buffer.from('\r\n\r\n')]));
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'why-not-iri-'));
  const html =
    '<!DOCTYPE html><html lang="de"><head><title>Köln Hauptbahnhof</title></head><body><article><h1>Köln Hauptbahnhof</h1>' +
    '<p>Der Kölner Hauptbahnhof liegt direkt neben dem Dom und ist einer der meistfrequentierten Bahnhöfe Deutschlands.</p>' +
    '<p>Täglich halten hier mehr als tausend Züge des Nah- und Fernverkehrs, und die Halle aus Stahl und Glas stammt aus dem neunzehnten Jahrhundert.</p>' +
    '</article></body></html>';
  const file = join(dataDir, 'iri.warc.gz');
  writeFileSync(file, responseRecord(IRI, html));
  server = await startIngestedServer([file], dataDir);
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function whyNot(url: string): Promise<{ status: string; hit?: { url: string } }> {
  return server.get(`/why_not?url=${encodeURIComponent(url)}`);
}

describe('why_not of a page crawled under an IRI', () => {
  it('finds it by the IRI and by its percent-encoded form, and not by the latin1 misreading', async () => {
    const byIri = await whyNot(IRI);
    expect(byIri.status).toBe('present');
    expect(byIri.hit?.url).toBe(IRI);
    expect((await whyNot('https://de.wikipedia.org/wiki/K%C3%B6ln_Hauptbahnhof')).status).toBe('present');
    expect((await whyNot(Buffer.from(IRI, 'utf8').toString('latin1'))).status).toBe('unknown');
  });
});
