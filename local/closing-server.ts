import type { Server } from 'node:http';

/**
 * A close for a local HTTP server that a polling browser cannot hold open. `server.close()` ends
 * only the connections idle at that moment; the console polls every few seconds, sooner than the
 * keep-alive timeout, so a connection busy when close was called was reused for ever and close
 * never returned. Requests in flight still get their answers; each connection is then closed as
 * soon as it falls idle.
 */
export const closerFor = (server: Server): (() => Promise<void>) => {
  let closing = false;
  server.on('request', (_request, response) =>
    response.once('finish', () => {
      // After Node's own finish handling has marked the connection idle.
      if (closing) setImmediate(() => server.closeIdleConnections());
    }),
  );
  return () =>
    new Promise<void>((resolve, reject) => {
      closing = true;
      server.close((error) => (error ? reject(error) : resolve()));
    });
};
