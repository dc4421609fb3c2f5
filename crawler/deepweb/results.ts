/**
 * What a result page says, read without knowing the site: the records it lists (links that are
 * neither site chrome nor the search itself), the request for its next page (a "next" link or
 * button form), the total the site reports, and a signature of its content that ignores the
 * echoed query values, layout and record order (after Madhavan et al.: two pages with the same
 * signature show the same results).
 */
import { createHash } from 'node:crypto';
import { parseFormPage } from './forms.ts';
import { requestFromValues, type FormRequest } from './client.ts';

/** The search site's chrome, learnt from the form page: links and words every page carries. */
export interface SiteTemplate {
  /** Path of the form's action (links there are pagination or re-sorting, not records). */
  actionPath: string;
  /** Links of the form page (navigation). */
  chromeLinks: Set<string>;
  /** Words of the form page (labels, option names, navigation). */
  chromeWords: Set<string>;
}

export type PageClass = 'results' | 'empty' | 'error';

export interface ResultPage {
  cls: PageClass;
  /** Record (detail page) URLs in page order. */
  records: string[];
  /** Words shown with each record (title and summary), for keyword mining. */
  recordText: Map<string, string>;
  next: FormRequest | null;
  /** Total matches the page reports ("of 405"), if it says. */
  total: number | null;
  signature: string;
}

const NEXT = /\bnext\b|^\s*(>|»|›)\s*$/i;

export function words(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u)
    .filter((w) => w.length > 1 && /\p{L}/u.test(w));
}

export function siteTemplate(formPageHtml: string, formPageUrl: string, action: string): SiteTemplate {
  const p = parseFormPage(formPageHtml, formPageUrl);
  return {
    actionPath: new URL(action).pathname,
    chromeLinks: new Set(p.links.map((l) => l.url)),
    chromeWords: new Set(words(p.text)),
  };
}

/**
 * Reads a result page. `echoed` are the values the query bound: their words are left out of the
 * signature, like the chrome's words and all numbers (counters, page numbers).
 */
export function readResultPage(
  html: string,
  url: string,
  status: number | null,
  tpl: SiteTemplate,
  echoed: readonly string[],
): ResultPage {
  const p = parseFormPage(html, url);
  const records: string[] = [];
  const recordText = new Map<string, string>();
  const host = new URL(url).host;
  let next: FormRequest | null = null;
  for (const l of p.links) {
    const u = new URL(l.url);
    if (u.pathname === tpl.actionPath) {
      if (!next && NEXT.test(l.text)) next = { method: 'GET', url: l.url };
      continue;
    }
    if (u.host !== host || tpl.chromeLinks.has(l.url) || recordText.has(l.url)) continue;
    records.push(l.url);
    recordText.set(l.url, l.text);
  }
  if (!next) {
    const b = p.buttonForms.find((f) => NEXT.test(f.buttonText) && new URL(f.form.action).pathname === tpl.actionPath);
    if (b) next = requestFromValues(b.form, b.values);
  }
  // record summaries: the text between one record link and the next, as far as the page shows it
  const text = p.text;
  for (let k = 0; k < records.length; k++) {
    const t = recordText.get(records[k])!;
    const at = text.indexOf(t);
    const nextTitle = k + 1 < records.length ? recordText.get(records[k + 1])! : '';
    const end = nextTitle ? text.indexOf(nextTitle, at + t.length) : -1;
    if (at >= 0) recordText.set(records[k], text.slice(at, end > at ? end : at + t.length + 300));
  }
  const m = /\bof\s+([\d,]{1,12})\b/i.exec(text) ?? /\b([\d,]{1,12})\s+(?:results|matches|records|hits)\b/i.exec(text);
  const total = m ? Number(m[1].replace(/,/g, '')) : null;
  const echo = new Set(echoed.flatMap(words));
  const content = new Set(words(text).filter((w) => !echo.has(w) && !tpl.chromeWords.has(w)));
  // 64 bits of SHA-1 (native): a result page's signature string runs to tens of kilobytes, which
  // the JavaScript FNV of crawler/url.ts hashed at a fifth of the speed
  const signature = createHash('sha1')
    .update([...[...records].sort(), '|', ...[...content].sort()].join(' '))
    .digest('hex')
    .slice(0, 16);
  const cls: PageClass = status === null || status >= 400 ? 'error' : records.length ? 'results' : 'empty';
  return { cls, records, recordText, next, total, signature };
}
