import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closerFor } from '../../local/closing-server.ts';

/** A keep-alive client like a browser tab: it keeps its connection open between requests. */
const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
const get = (port: number): Promise<string> =>
  new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, agent: keepAlive }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve(body));
    })
      .on('error', reject)
      .end();
  });

/** A server whose answer waits until the test lets it go, so a request is in flight when close is called. */
const heldServer = async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const arrived: Array<() => void> = [];
  const server: Server = createServer((_request, response) => {
    arrived.shift()?.();
    void held.then(() => response.end('answered'));
  });
  // No keep-alive timeout: only the close itself can end the client's connection.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const requestArrived = new Promise<void>((resolve) => arrived.push(resolve));
  return { server, port: (server.address() as AddressInfo).port, release, requestArrived };
};

const settledWithin = <T>(promise: Promise<T>, ms: number): Promise<T | 'still pending'> =>
  Promise.race([promise, new Promise<'still pending'>((resolve) => setTimeout(() => resolve('still pending'), ms).unref())]);

describe('closerFor', () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.closeAllConnections();
    keepAlive.destroy();
  });

  it('returns once a request in flight at close time is answered, though the client keeps its connection alive', async () => {
    const { server, port, release, requestArrived } = await heldServer();
    servers.push(server);
    const close = closerFor(server);
    const answer = get(port);
    await requestArrived;

    const closed = close();
    release();

    expect(await answer).toBe('answered');
    expect(await settledWithin(closed, 10_000)).toBeUndefined();
  });

  it('without it, the same close waits on the kept-alive connection (why the closer exists)', async () => {
    const { server, port, release, requestArrived } = await heldServer();
    servers.push(server);
    const answer = get(port);
    await requestArrived;

    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    release();

    expect(await answer).toBe('answered');
    expect(await settledWithin(closed, 500)).toBe('still pending');
  });
});
