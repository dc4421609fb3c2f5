/**
 * Form discovery: breadth-first over a site from its start page, collecting every search form
 * a query can fill (each action once) with the site's chrome learnt from the form's page, and
 * every form skipped with its reason.
 */
import type { FormClient } from './client.ts';
import { parseFormPage, type SearchForm, type SkippedForm } from './forms.ts';
import { siteTemplate, type SiteTemplate } from './results.ts';
import { append } from '../../lib/arrays.ts';

export interface DiscoveredForm {
  form: SearchForm;
  /** The site's chrome, learnt from the page the form is on. */
  template: SiteTemplate;
}

export interface Discovery {
  forms: DiscoveredForm[];
  skipped: SkippedForm[];
  /** Pages fetched while looking. */
  pages: number;
}

/**
 * Breadth-first over the start page's host, at most maxPages pages, collecting every form a
 * query can fill (each action once) and every form skipped, with its reason.
 */
export async function discoverForms(client: FormClient, startUrl: string, maxPages = 20): Promise<Discovery> {
  const host = new URL(startUrl).host;
  const queue = [startUrl];
  const seen = new Set(queue);
  const out: Discovery = { forms: [], skipped: [], pages: 0 };
  const actions = new Set<string>();
  while (queue.length && out.pages < maxPages) {
    const url = queue.shift()!;
    const f = await client.fetch({ method: 'GET', url });
    out.pages++;
    if (f.status !== 200) continue;
    const p = parseFormPage(f.html, url);
    append(out.skipped, p.skipped);
    for (const form of p.forms) {
      const key = `${form.method} ${form.action}`;
      if (actions.has(key)) continue;
      actions.add(key);
      out.forms.push({ form, template: siteTemplate(f.html, url, form.action) });
    }
    for (const l of p.links) {
      const u = new URL(l.url);
      // result pages are found by submitting, not by following links with a query
      if (u.host === host && !u.search && !seen.has(l.url)) {
        seen.add(l.url);
        queue.push(l.url);
      }
    }
  }
  return out;
}
