import { describe, expect, it } from 'vitest';
import { redactArg, redactSecrets } from './secrets.ts';

describe('redactSecrets: no credential of a URL in anything printed or written (issue #89)', () => {
  it('hides user information, whatever characters the password holds', () => {
    expect(redactSecrets('redis://:s3cret@h:1/2?queue=x')).toBe('redis://***@h:1/2?queue=x');
    expect(redactSecrets('redis://user:s3cret@h:1')).toBe('redis://***@h:1');
    // a raw "@" in the password: everything to the last "@" (redactUrl once showed "def")
    expect(redactSecrets('redis://:abc@def@host')).toBe('redis://***@host');
    // ":", "/", "#", "?", "%" raw, and escaped
    const raw = 'redis://:p@:/#?%w@127.0.0.1:6379/0?queue=q';
    expect(redactSecrets(raw)).toBe('redis://***@127.0.0.1:6379/0?queue=q');
    const escaped = `redis://:${encodeURIComponent('p@:/#?%w')}@127.0.0.1:6379`;
    expect(redactSecrets(escaped)).toBe('redis://***@127.0.0.1:6379');
    // inside a sentence and in JSON
    expect(redactSecrets('error: no Redis at rediss://u:pw@h:6380 (refused)')).toBe(
      'error: no Redis at rediss://***@h:6380 (refused)',
    );
    expect(redactSecrets(JSON.stringify({ command: 'x --queue redis://:a"b@h:1 y' }))).not.toContain('a\\"b');
  });

  it('hides credential parameters and leaves other URLs alone', () => {
    expect(redactSecrets('https://h/p?token=abc&x=1&api_key=k#f')).toBe('https://h/p?token=***&x=1&api_key=***#f');
    expect(redactSecrets('http://cs.alpha-university.test/people/?sid=42&page=2')).toBe(
      'http://cs.alpha-university.test/people/?sid=42&page=2',
    );
    expect(redactSecrets('no url here: a@b')).toBe('no url here: a@b');
    // an address in a query: the host stays, the part before the "@" is hidden
    expect(redactSecrets('http://h/p?e=a@b.com')).toBe('http://h/***@b.com');
  });

  it('takes a whole command-line argument as one URL', () => {
    expect(redactArg('--queue=redis://:pass word@h:1')).toBe('--queue=redis://***@h:1');
    expect(redactArg('redis://:p@ss@h')).toBe('redis://***@h');
    expect(redactArg('configs/x.json')).toBe('configs/x.json');
  });
});

describe('redactSecrets without a scheme', () => {
  it('hides "//user:password@" all the same', () => {
    expect(redactSecrets('not a url //u:s3cret@h')).toBe('not a url //***@h');
    expect(redactArg('//:pw@h:1')).toBe('//***@h:1');
  });
});
