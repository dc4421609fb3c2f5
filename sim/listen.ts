/** Binds a Fastify app to 127.0.0.1 (never another interface) and returns the port it got. */
import type { FastifyInstance } from 'fastify';

export async function listenLoopback(app: FastifyInstance, port = 0): Promise<number> {
  await app.listen({ host: '127.0.0.1', port });
  const addr = app.server.address();
  return typeof addr === 'object' && addr ? addr.port : 0;
}
