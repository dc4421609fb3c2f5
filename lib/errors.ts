/**
 * Every error the harness raises on purpose, in one table (as undici's and fastify's): a stable
 * code, what it means, and the exit code a command ends with when the error reaches it (lib/cli.ts
 * exitOf): 2 for the user's input (nothing was started), 1 for a command that ran and failed. Logs
 * and summaries count by code; callers that tell errors apart by type keep their classes, each a
 * HarnessError with its code. A new error is a row here (and a class only if a caller catches it
 * by type); test/errors.test.ts holds every class and every `extends Error` to the table.
 */
export const ERRORS = {
  // the user's input: exit 2
  USAGE_ERR: { exit: 2, help: 'a bad flag or value on the command line' },
  INPUT_ERR: { exit: 2, help: 'a file a flag or a config names cannot be used (missing, too large, not JSON)' },
  SIM_ERR_CONFIG: { exit: 2, help: 'a web config (sim/config.ts) that is not valid' },
  SIM_ERR_WARC_DAMAGED: { exit: 2, help: 'a WARC file that is not whole, opened strict: where and how' },
  EXP_ERR_CONFIG: { exit: 2, help: 'an experiment config that cannot run, naming the field' },
  EXP_ERR_FIT: { exit: 2, help: 'a twin fit that cannot be made from what it was given (too few sites, a bad knob)' },
  QUEUE_ERR_URL: { exit: 2, help: 'a --queue URL that is not a Redis URL the harness can use' },
  CRAWL_ERR_STRATEGY: {
    exit: 2,
    help: 'a strategy that cannot be built: an input it needs is missing, a bad parameter, a module that does not load',
  },
  CRAWL_ERR_SETTINGS: { exit: 2, help: 'crawl settings that are not valid' },
  CRAWL_ERR_RESUME: { exit: 2, help: 'a crawl directory that cannot be resumed' },
  OUT_ERR_IN_USE: {
    exit: 2,
    help: 'an output folder another run is writing into (its .lock names the process), or one that cannot be written',
  },
  OUT_ERR_EXISTS: {
    exit: 2,
    help: 'an output folder that holds a crawl: continue it with --resume or replace it with --force',
  },
  // a page's outcome: recorded in the crawl log and counted in the summary, or thrown for a start URL
  CRAWL_ERR_URL: { exit: 2, help: 'a URL that cannot be parsed or fetched (not http/https)' },
  CRAWL_ERR_OUT_OF_SCOPE: { exit: 2, help: "a URL outside the crawl's scope" },
  CRAWL_ERR_ADDRESS_REFUSED: { exit: 2, help: 'a host that resolves to an address outside the allowed ones' },
  CRAWL_ERR_ROBOTS: { exit: 1, help: 'a URL robots.txt disallows' },
  CRAWL_ERR_TIMEOUT: { exit: 1, help: 'a response that did not start in time' },
  CRAWL_ERR_DEADLINE: { exit: 1, help: 'a response that did not finish within its deadline' },
  CRAWL_ERR_URL_TOO_LONG: { exit: 1, help: 'a URL longer than the limit' },
  CRAWL_ERR_NETWORK: { exit: 1, help: 'a connection refused, reset or failed' },
  CRAWL_ERR_MALFORMED: {
    exit: 1,
    help: 'an answer that breaks HTTP (does not parse, headers past the limit, a status outside 100-599): not retried',
  },
  CRAWL_ERR_HTTP: { exit: 1, help: 'an HTTP status that is not a page' },
  CRAWL_ERR_TOO_LARGE: { exit: 1, help: 'a body over the size limit' },
  CRAWL_ERR_REDIRECT_LOOP: { exit: 1, help: 'redirects that come back to a URL already followed' },
  CRAWL_ERR_TOO_MANY_REDIRECTS: { exit: 1, help: 'more redirects in a row than the limit' },
  CRAWL_ERR_STOPPED: {
    exit: 1,
    help: 'the crawl stopped before the request was sent: not a result, the URL stays queued for --resume',
  },
  CRAWL_ERR_STRATEGY_FAILED: {
    exit: 1,
    help: 'a strategy that threw, overran its time or broke the contract during a crawl (named, with the page)',
  },
  // a command that ran and failed: exit 1
  CMD_ERR_FAILED: { exit: 1, help: 'the command ran and failed (a run that threw, a file it could not write)' },
  OUT_ERR_WRITE: {
    exit: 1,
    help: 'results or a crawl journal could not be written (a full disk, a read-only folder): the folder keeps INCOMPLETE',
  },
} as const satisfies Record<string, { exit: 1 | 2; help: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** An error of the table: its code, and the exit code it stands for. */
export class HarnessError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }

  get exitCode(): 1 | 2 {
    return ERRORS[this.code].exit;
  }
}

/**
 * The one shape of an error class of a single row: `class X extends ofCode('CODE') {}`, made with
 * (message, options). A subclass that stands for another row names it as its static `ownCode`
 * (FitError is an ExperimentConfigError with a code of its own). Classes whose caller picks the
 * row (OutFolderError, CrawlError) are HarnessErrors made with (code, message, options).
 */
export function ofCode(code: ErrorCode) {
  return class extends HarnessError {
    constructor(message: string, options?: { cause?: unknown }) {
      super((new.target as { ownCode?: ErrorCode }).ownCode ?? code, message, options);
    }
  };
}

/** A usage error: exit 2, nothing was started. */
export class UsageError extends ofCode('USAGE_ERR') {}

/** The command ran and failed: exit 1. */
export class CommandFailed extends ofCode('CMD_ERR_FAILED') {}

/** A named file that cannot be used: a usage error (exit 2) wherever it is caught. */
export class InputError extends ofCode('INPUT_ERR') {}

/** A web config that is not valid. */
export class ConfigError extends ofCode('SIM_ERR_CONFIG') {}

/** A config that cannot run: exit code 2, one line naming the field. */
export class ExperimentConfigError extends ofCode('EXP_ERR_CONFIG') {}

/**
 * A fit that cannot be made from what it was given (too few sites, a knob out of range): the
 * user's input, so an ExperimentConfigError (exit 2 from every command), with a code of its own.
 */
export class FitError extends ExperimentConfigError {
  static readonly ownCode = 'EXP_ERR_FIT';
}

/** A WARC file that is not whole, where and how (refused when the archive is opened strict). */
export class WarcDamaged extends ofCode('SIM_ERR_WARC_DAMAGED') {}

/** A --queue URL that is not one (exit 2 at the command line). */
export class QueueUrlError extends ofCode('QUEUE_ERR_URL') {}

/** A strategy that cannot be built: an input it needs is missing, a parameter is bad, a module does not load. */
export class StrategyError extends ofCode('CRAWL_ERR_STRATEGY') {}

/**
 * A strategy that failed during a crawl (threw, overran strategyTimeoutMs, broke the contract): the
 * run failed (exit 1), where a strategy that cannot be built is the user's input (exit 2). A
 * StrategyError, so a probe before any crawl still refuses the config.
 */
export class StrategyFailed extends StrategyError {
  static readonly ownCode = 'CRAWL_ERR_STRATEGY_FAILED';
}

/** An output folder in use, holding a crawl, or not writable (lib/out-folder.ts). */
export class OutFolderError extends HarnessError {
  constructor(
    code: 'OUT_ERR_IN_USE' | 'OUT_ERR_EXISTS' | 'OUT_ERR_WRITE',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** The codes of what the crawler raises or records for a URL or a crawl (crawler/errors.ts). */
export type CrawlErrorCode = Exclude<
  Extract<ErrorCode, `CRAWL_ERR_${string}`>,
  'CRAWL_ERR_STRATEGY' | 'CRAWL_ERR_STRATEGY_FAILED'
>;

/** Every error the crawler raises or records, with its code and the underlying cause. */
export class CrawlError extends HarnessError {
  declare readonly code: CrawlErrorCode;
  constructor(code: CrawlErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
