/**
 * Form discovery: one htmlparser2 pass over a page gives its forms (method, action, inputs
 * with their options and defaults), its links with their text and its visible words. Forms a
 * query crawler cannot or must not fill (logins, uploads, scripts, inputs without values) are
 * skipped with a reason, never half-used.
 */
import { Parser } from 'htmlparser2';
import { append } from '../../lib/arrays.ts';

export type InputType = 'select' | 'text' | 'hidden' | 'radio' | 'checkbox';

export interface FormInput {
  name: string;
  type: InputType;
  /** Label text (from <label> or the nearest preceding text), for reports. */
  label: string;
  /** Values a query may bind (select/radio options, the checkbox value); empty for text. */
  options: string[];
  /** Value sent when the input is not bound (selected option, value attribute, '' for text). */
  defaultValue: string;
  /** Text inputs: the HTML type (text, search, date, number, ...) and its min / max, as hints. */
  htmlType?: string;
  min?: string;
  max?: string;
}

export interface SearchForm {
  /** Page the form was found on. */
  pageUrl: string;
  /** Absolute action URL (without the query part for GET forms: the form replaces it). */
  action: string;
  method: 'GET' | 'POST';
  inputs: FormInput[];
  /** Index of the form on its page. */
  index: number;
}

export interface SkippedForm {
  pageUrl: string;
  index: number;
  reason: string;
}

export interface PageLink {
  url: string;
  text: string;
}

/** A form nested in a result page whose button says where it goes ("Next page"). */
export interface ButtonForm {
  form: SearchForm;
  /** All inputs' values as the page filled them (hidden inputs included). */
  values: [string, string][];
  buttonText: string;
}

export interface FormPage {
  forms: SearchForm[];
  skipped: SkippedForm[];
  links: PageLink[];
  buttonForms: ButtonForm[];
  /** Visible text (scripts and styles removed). */
  text: string;
}

const TEXT_TYPES = new Set(['text', 'search', '']);
const IGNORED_TYPES = new Set(['submit', 'button', 'image', 'reset']);

interface Draft {
  index: number;
  method: string;
  action: string | undefined;
  inputs: FormInput[];
  values: [string, string][];
  problems: string[];
  buttonText: string;
}

/** A new draft's lists, empty. */
function emptyLists(): Pick<Draft, 'inputs' | 'values' | 'problems' | 'buttonText'> {
  return { inputs: [], values: [], problems: [], buttonText: '' };
}

/** An <a href>'s absolute http(s) URL without its fragment, or null (another scheme, unusable). */
function pageLinkOf(href: string, pageUrl: string): PageLink | null {
  try {
    const u = new URL(href.trim(), pageUrl);
    u.hash = '';
    return u.protocol === 'http:' || u.protocol === 'https:' ? { url: u.href, text: '' } : null;
  } catch {
    return null; // unusable href: not a link
  }
}

/** A finished form: a search form, a button form (a POST result page's next page), or skipped with why. */
function settleForm(
  d: Draft,
  pageUrl: string,
  out: { forms: SearchForm[]; skipped: SkippedForm[]; buttonForms: ButtonForm[] },
): void {
  const skip = (reason: string): void => void out.skipped.push({ pageUrl, index: d.index, reason });
  if (d.problems.length) return skip(d.problems[0]);
  const target = formTarget(d, pageUrl);
  if (typeof target === 'string') return skip(target);
  const { action, m } = target;
  const merged = mergeRadios(d.inputs);
  const form: SearchForm = { pageUrl, action: action.href, method: m, inputs: merged, index: d.index };
  if (!merged.some((x) => x.type !== 'hidden')) {
    // a button with hidden values is how POST result pages link their next page
    if (d.buttonText) out.buttonForms.push({ form, values: d.values, buttonText: d.buttonText });
    return skip('no inputs a query can fill');
  }
  out.forms.push(form);
}

/** Parses forms, links and text of an HTML page. Never throws on malformed markup. */
export function parseFormPage(html: string, pageUrl: string): FormPage {
  const reader = new FormPageReader(pageUrl);
  const parser = new Parser(reader, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();
  // an unclosed form ends with the document, as in browsers
  reader.finishForm();
  const { forms, skipped, links, buttonForms, text } = reader;
  return { forms, skipped, links, buttonForms, text: text.join(' ').replace(/\s+/g, ' ').trim() };
}

/**
 * The tokenizer's events read into a page's forms (each input, select and its options, the
 * submit button's text), its links with their anchor text, and its text.
 */
class FormPageReader {
  readonly forms: SearchForm[] = [];
  readonly skipped: SkippedForm[] = [];
  readonly links: PageLink[] = [];
  readonly buttonForms: ButtonForm[] = [];
  readonly text: string[] = [];
  private draft: Draft | null = null;
  private formCount = 0;
  private select: FormInput | null = null;
  private option: { value: string | undefined; label: string; selected: boolean } | null = null;
  private selectHasSelected = false;
  private link: PageLink | null = null;
  private skipDepth = 0;
  private lastText = '';
  private button: string | null = null;

  constructor(private readonly pageUrl: string) {}

  onopentag(name: string, a: Record<string, string>): void {
    if (name === 'script' || name === 'style') {
      this.skipDepth++;
      return;
    }
    if (name === 'form') {
      if (this.draft) this.draft.problems.push('nested form');
      else this.draft = { index: this.formCount++, method: a.method ?? 'get', action: a.action, ...emptyLists() };
      return;
    }
    if (name === 'a' && a.href !== undefined) {
      this.link = pageLinkOf(a.href, this.pageUrl);
      return;
    }
    if (this.draft) this.openInForm(this.draft, name, a);
  }

  /** An input, textarea, select, option or button inside a form. */
  private openInForm(d: Draft, name: string, a: Record<string, string>): void {
    const label = this.lastText.trim();
    if (name === 'input') return addInput(d, a, label);
    if (name === 'textarea' && a.name) {
      d.inputs.push({ name: a.name, type: 'text', label, options: [], defaultValue: '' });
      d.values.push([a.name, '']);
      return;
    }
    if (name === 'select') {
      this.finishSelect();
      if (a.name === undefined) return;
      if (a.multiple !== undefined) {
        d.problems.push(`select "${a.name}" takes several values`);
        return;
      }
      this.select = { name: a.name, type: 'select', label, options: [], defaultValue: '' };
      this.selectHasSelected = false;
      return;
    }
    if (name === 'option' && this.select) {
      this.finishOption();
      this.option = { value: a.value, label: '', selected: a.selected !== undefined };
      return;
    }
    if (name === 'button') this.button = '';
  }

  ontext(t: string): void {
    if (this.skipDepth) return;
    if (this.option) this.option.label += t;
    if (this.link) this.link.text += t;
    if (this.button !== null) this.button += t;
    if (t.trim()) this.lastText = t;
    this.text.push(t);
  }

  onclosetag(name: string): void {
    if (name === 'script' || name === 'style') {
      this.skipDepth = Math.max(0, this.skipDepth - 1);
      return;
    }
    if (name === 'a' && this.link) {
      this.link.text = this.link.text.replace(/\s+/g, ' ').trim();
      this.links.push(this.link);
      this.link = null;
    } else if (name === 'option') this.finishOption();
    else if (name === 'select') this.finishSelect();
    else if (name === 'button' && this.button !== null) {
      if (this.draft) this.draft.buttonText ||= this.button.trim();
      this.button = null;
    } else if (name === 'form') this.finishForm();
  }

  private finishOption(): void {
    const { option, select } = this;
    if (!option || !select) return;
    const value = option.value ?? option.label.trim();
    select.options.push(value);
    if (option.selected && !this.selectHasSelected) {
      select.defaultValue = value;
      this.selectHasSelected = true;
    }
    this.option = null;
  }

  private finishSelect(): void {
    this.finishOption();
    const { select, draft } = this;
    if (!select || !draft) return;
    if (!select.options.length) draft.problems.push(`select "${select.name}" has no options`);
    else {
      if (!this.selectHasSelected) select.defaultValue = select.options[0];
      draft.inputs.push(select);
      draft.values.push([select.name, select.defaultValue]);
    }
    this.select = null;
  }

  finishForm(): void {
    this.finishSelect();
    const d = this.draft;
    this.draft = null;
    if (d) settleForm(d, this.pageUrl, { forms: this.forms, skipped: this.skipped, buttonForms: this.buttonForms });
  }
}

/** A free-text keyword box (text or search), as opposed to a typed text input (date, number, ...). */
export function isKeywordBox(input: FormInput): boolean {
  return (
    input.type === 'text' && (input.htmlType === undefined || input.htmlType === 'text' || input.htmlType === 'search')
  );
}

/** The inputs a query can bind: everything but hidden inputs, text inputs only with values to try. */
export function queryInputs(form: SearchForm): FormInput[] {
  return form.inputs.filter((i) => i.type !== 'hidden');
}

/** Values of an input other than its default (the "any" option of a select is the default). */
export function bindableValues(input: FormInput): string[] {
  return input.options.filter((v) => v !== input.defaultValue && v !== '');
}

/** An <input> of a form being read: a query's field, a hidden value, or a reason to skip the form. */
function addInput(d: Draft, a: Record<string, string>, label: string): void {
  const type = (a.type ?? 'text').toLowerCase();
  if (type === 'password') {
    d.problems.push('login form (password input)');
    return;
  }
  if (type === 'file') {
    d.problems.push('file upload');
    return;
  }
  if (IGNORED_TYPES.has(type)) {
    if (type === 'submit' && a.value) d.buttonText ||= a.value;
    return;
  }
  const fieldName = a.name;
  if (!fieldName) return;
  const value = a.value ?? '';
  if (type === 'hidden') {
    d.inputs.push({ name: fieldName, type: 'hidden', label, options: [value], defaultValue: value });
    d.values.push([fieldName, value]);
  } else if (type === 'radio' || type === 'checkbox') {
    // one option each: a form's radios of one name are merged into one input when it is finished
    const v = a.value ?? 'on';
    d.inputs.push({ name: fieldName, type, label, options: [v], defaultValue: a.checked !== undefined ? v : '' });
    if (a.checked !== undefined) d.values.push([fieldName, v]);
  } else if (TEXT_TYPES.has(type) || ['email', 'tel', 'number', 'date', 'url'].includes(type)) {
    const hints = {
      htmlType: type || 'text',
      ...(a.min !== undefined ? { min: a.min } : {}),
      ...(a.max !== undefined ? { max: a.max } : {}),
    };
    d.inputs.push({ name: fieldName, type: 'text', label, options: [], defaultValue: value, ...hints });
    d.values.push([fieldName, value]);
  }
}

/** A form's inputs with the radio buttons of one name merged into one input. */
function mergeRadios(inputs: readonly FormInput[]): FormInput[] {
  const merged: FormInput[] = [];
  for (const inp of inputs) {
    const prev = inp.type === 'radio' ? merged.find((x) => x.type === 'radio' && x.name === inp.name) : undefined;
    if (prev) {
      append(prev.options, inp.options);
      if (inp.defaultValue) prev.defaultValue = inp.defaultValue;
    } else merged.push({ ...inp, options: [...inp.options] });
  }
  return merged;
}

/** Where and how a form submits (HTML's defaults: this page, GET), or why it cannot be submitted. */
function formTarget(d: Draft, pageUrl: string): { action: URL; m: 'GET' | 'POST' } | string {
  const method = d.method.toLowerCase();
  if (method === 'dialog') return 'method "dialog" submits nothing';
  let action: URL;
  try {
    action = new URL(d.action === undefined || d.action.trim() === '' ? pageUrl : d.action.trim(), pageUrl);
  } catch {
    return `action "${d.action}" is not a URL`;
  }
  if (action.protocol !== 'http:' && action.protocol !== 'https:') return `action uses the ${action.protocol} scheme`;
  action.hash = '';
  const m: 'GET' | 'POST' = method === 'post' ? 'POST' : 'GET'; // HTML: a missing or unknown method is GET
  if (m === 'GET') action.search = '';
  return { action, m };
}
