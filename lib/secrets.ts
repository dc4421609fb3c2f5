/**
 * Credentials out of everything the harness writes or prints (issue #89): a queue URL's password
 * once reached provenance.json through the command line, and a password with a raw "@" was only
 * partly hidden. redactSecrets() is applied where the command line is recorded (provenance, folder
 * locks), to every line a command prints (lib/cli.ts) and to the Redis URL in messages.
 *
 * - A URL's user information: everything between "//" and the last "@" of the URL, whatever it
 *   holds (":", "@", "/", "#", "?", "%", raw or escaped), becomes "***". Where a URL without one has
 *   an "@" further on (an address in a query), the part before it is hidden too: hiding too much
 *   in a log line is the safe side.
 * - Query parameters named like a credential (password, token, key, secret, auth, signature ...):
 *   their values become "***".
 */

/** A URL: a scheme (or none), "//", and what follows up to white space (a quote may be part of a password). */
const URL_RE = /((?:\b[a-z][a-z0-9+.-]*:)?\/\/)(\S*)/gi;

/** Query parameters whose value is a credential. */
const SECRET_PARAMS = [
  'password',
  'passwd',
  'pwd',
  'pass',
  'secret',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'auth',
  'authorization',
  'key',
  'apikey',
  'api_key',
  'api-key',
  'sig',
  'signature',
  'credential',
  'credentials',
  'client_secret',
];
const SECRET_PARAM_RE = new RegExp(`([?&;](?:${SECRET_PARAMS.join('|')})=)([^&#\\s"'<>\`]*)`, 'gi');

/** One URL's text with its user information and credential parameters hidden. */
function redactOne(scheme: string, rest: string): string {
  let out = rest;
  const at = out.lastIndexOf('@');
  if (at >= 0) {
    const user = out.slice(0, at);
    const slash = user.indexOf('/');
    // user information holds no raw "/" unless a password does (after its ":"): a "/" before any
    // ":" means the "@" is further on, in a path or a query; hidden all the same, nothing to leak
    out =
      slash >= 0 && !user.slice(0, slash).includes(':')
        ? `${out.slice(0, slash)}/***@${out.slice(at + 1)}`
        : `***@${out.slice(at + 1)}`;
  }
  return scheme + out.replace(SECRET_PARAM_RE, '$1***');
}

/**
 * One command-line argument with the credentials of the URL it holds hidden: the whole rest of the
 * argument is the URL (a password may even hold a space there).
 */
export function redactArg(arg: string): string {
  const m = /(?:\b[a-z][a-z0-9+.-]*:)?\/\//i.exec(arg);
  if (!m) return arg;
  return arg.slice(0, m.index) + redactOne(m[0], arg.slice(m.index + m[0].length));
}

/** `text` with every credential in a URL replaced by "***". */
export function redactSecrets(text: string): string {
  // a scheme is not required: "//user:password@host" written without one is hidden too
  if (!text.includes('//')) return text;
  return text.replace(URL_RE, (_m, scheme: string, rest: string) => redactOne(scheme, rest));
}
