/**
 * A response body decoded to text, its encoding found as the WHATWG Encoding Standard finds it: a
 * byte-order mark first (UTF-8, UTF-16LE, UTF-16BE), else the charset of the Content-Type header,
 * else of a <meta> in the first 1,024 bytes (a meta that says UTF-16 means UTF-8: the bytes that
 * hold it are ASCII), else UTF-8 where the bytes are UTF-8 and windows-1252 where they are not
 * (what a 1997 page without a declaration was written in: "G\u00f6del" in Latin-1 bytes, not
 * "G\ufffddel"). An unknown label is read as UTF-8. The windows-1252 family is decoded as the
 * standard says (Node reads it as Latin-1).
 */
import { TextDecoder } from 'node:util';

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([a-z0-9_:.-]+)/i;

/** The encoding a byte-order mark names, and its length; null without one. */
function bom(body: Buffer): { cs: string; skip: number } | null {
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { cs: 'utf-8', skip: 3 };
  if (body.length >= 2 && body[0] === 0xff && body[1] === 0xfe) return { cs: 'utf-16le', skip: 2 };
  if (body.length >= 2 && body[0] === 0xfe && body[1] === 0xff) return { cs: 'utf-16be', skip: 2 };
  return null;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether the bytes are well-formed UTF-8. */
function isUtf8(body: Buffer): boolean {
  try {
    strictUtf8.decode(body);
    return true;
  } catch {
    return false;
  }
}

/** One decoder per charset label met. */
const decoders = new Map<string, TextDecoder>();
/**
 * The body's text by the WHATWG rules (BOM, then the header's label, then a meta's), and whether it
 * could not be decoded as declared: an unknown label (read as UTF-8), or bytes that are not valid
 * in the charset (each became U+FFFD).
 */
export function decodeBody(
  body: Buffer,
  headerCharset?: string,
): { text: string; charset: string; undecodable: boolean } {
  const mark = bom(body);
  let cs = mark?.cs ?? headerCharset;
  if (mark) body = body.subarray(mark.skip);
  if (!cs) {
    const head = body.subarray(0, 1024).toString('latin1');
    const meta = META_CHARSET.exec(head)?.[1]?.toLowerCase();
    cs = meta?.startsWith('utf-16') ? 'utf-8' : (meta ?? (isUtf8(body) ? 'utf-8' : 'windows-1252'));
  }
  let dec = decoders.get(cs);
  let unknown = false;
  if (!dec) {
    try {
      dec = new TextDecoder(cs);
      decoders.set(cs, dec);
    } catch {
      dec = new TextDecoder('utf-8');
      cs = 'utf-8';
      unknown = true;
    }
  }
  let text = dec.decode(body);
  // a replacement character the bytes did not spell themselves (EF BF BD in UTF-8) is a byte
  // sequence the charset has no character for
  const undecodable = unknown || (text.includes('\ufffd') && !(dec.encoding === 'utf-8' && body.includes(FFFD)));
  // Node decodes the windows-1252 family (also the label of iso-8859-1 and ascii, per WHATWG) as
  // Latin-1; 0x80-0x9F are printable in windows-1252, so map them as the Encoding Standard does
  if (WIN1252_LABELS.has(cs) && /[\u0080-\u009f]/.test(text))
    text = text.replace(/[\u0080-\u009f]/g, (c) => WIN1252[c.charCodeAt(0) - 0x80] || c);
  return { text, charset: cs, undecodable };
}

const FFFD = Buffer.from([0xef, 0xbf, 0xbd]);

const WIN1252_LABELS = new Set([
  'windows-1252',
  'iso-8859-1',
  'latin1',
  'l1',
  'ascii',
  'us-ascii',
  'cp1252',
  'x-cp1252',
  'iso8859-1',
  'iso_8859-1',
  'cp819',
]);
const WIN1252 =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
