import { WARCRecord, WARCSerializer } from 'warcio';
import { describe, expect, it } from 'vitest';
import { serializeRecord } from './warc-records.ts';

const body = new Uint8Array(
  Buffer.from(`<html><head><title>Hé ünïcode</title></head><body>${'x'.repeat(5000)}</body></html>`),
);

function record(type: 'response' | 'request' | 'warcinfo', id: string): WARCRecord {
  if (type === 'warcinfo') {
    const info = WARCRecord.createWARCInfo({ filename: 'a.warc', warcVersion: 'WARC/1.1' }, { software: 'x' });
    info.warcHeaders.headers.set('WARC-Record-ID', id);
    info.warcHeaders.headers.set('WARC-Date', '2026-12-02T10:00:00.000Z');
    return info;
  }
  const r = WARCRecord.create(
    {
      url: 'http://cs.alpha-university.test/a?b=1',
      date: '2026-12-02T10:00:00.000Z',
      type,
      warcVersion: 'WARC/1.1',
      statusline: type === 'response' ? 'HTTP/1.1 200 OK' : 'GET /a?b=1 HTTP/1.1',
      httpHeaders: type === 'response' ? { 'content-type': 'text/html; charset=utf-8' } : { host: 'a.test' },
    },
    type === 'response' ? [body] : [],
  );
  r.warcHeaders.headers.set('WARC-Record-ID', id);
  if (type === 'request') r.warcHeaders.headers.set('WARC-Concurrent-To', '<urn:uuid:1>');
  return r;
}

describe('serializeRecord', () => {
  it.each([
    ['response', false],
    ['response', true],
    ['request', false],
    ['request', true],
    ['warcinfo', true],
  ] as const)('writes the bytes warcio writes when it computes the digests itself: %s, gzip %s', async (type, gzip) => {
    const id = '<urn:uuid:00000000-0000-4000-8000-000000000001>';
    const theirs = await WARCSerializer.serialize(record(type, id), { gzip });
    const ours = await serializeRecord(record(type, id), type === 'response' ? [body] : [], gzip);
    expect(Buffer.from(ours).equals(Buffer.from(theirs))).toBe(true);
    // the plain cases are records with digests (a warcinfo has none)
    if (!gzip) expect(Buffer.from(ours).toString('latin1')).toMatch(/WARC-Block-Digest: sha256:[0-9a-f]{64}/);
  });
});
