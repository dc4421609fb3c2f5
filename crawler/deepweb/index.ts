/**
 * Deep-web crawling: find a site's search forms by crawling from its start page, then surface
 * the records behind a form with ISIT, the Cartesian baseline or keyword probing. Every request
 * goes through FormClient, hence through the crawl core's politeness path.
 */
export { FormClient, buildRequest, type FormRequest } from './client.ts';
export {
  parseFormPage,
  bindableValues,
  isKeywordBox,
  type SearchForm,
  type FormInput,
  type SkippedForm,
} from './forms.ts';
export { rangeByNames, rangeCandidates, confirmRange, coverRange, type RangePair } from './ranges.ts';
export { detectType, typeValues, VALUE_TYPES, type TypedInput, type ValueType } from './typed-inputs.ts';
export { readResultPage, siteTemplate, type ResultPage, type SiteTemplate } from './results.ts';
export { SurfaceSession, type Submission, type SubmissionFate } from './session.ts';
export { isit, DEFAULT_ISIT, type IsitOptions, type IsitResult, type TemplateReport } from './isit.ts';
export { cartesian, cartesianSize } from './cartesian.ts';
export { probe, logLogFit, fitZipf, PROBE_POLICIES, type ProbePolicy, type ProbeResult } from './probe.ts';
export { discoverForms, type DiscoveredForm, type Discovery } from './discover.ts';
