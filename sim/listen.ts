import type { FastifyInstance } from 'fastify';

/** Binds a Fastify app to 127.0.0.1 (never another interface) and returns the port it got. */
export async function listenLoopback(app: FastifyInstance, port = 0): Promise<number> {
  await app.listen({ host: '127.0.0.1', port });
  const addr = app.server.address();
  return typeof addr === 'object' && addr ? addr.port : 0;
}

/**
 * A request's target in origin form: the absolute form ("GET http://host/path", what a client
 * sends through a proxy, as wget -e http_proxy=... does) becomes its path and query, as RFC 9112
 * 3.2.2 has every server accept it; the Host header names the host. Anything else as it came.
 */
export function originForm(req: { url?: string }): string {
  const url = req.url ?? '/';
  if (!/^https?:\/\//i.test(url)) return url;
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}
