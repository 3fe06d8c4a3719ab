import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { apiProxyRoutes, type ApiProxyOptions } from './proxy.ts';
import { closerFor } from '../closing-server.ts';
import { sameMachineOnly } from '../same-machine-only.ts';

export interface ConsoleServerOptions extends ApiProxyOptions {
  /** The web app's routes (`GET /`, `/console/*`); every other request goes to the API. */
  assets: Hono;
  /** 0 picks a free port. */
  port: number;
  log?: (line: string) => void;
}

export interface ConsoleServer {
  url: string;
  close(): Promise<void>;
}

/** The console on 127.0.0.1 only: its assets, and every other request forwarded to the API. */
export const startConsoleServer = async (options: ConsoleServerOptions): Promise<ConsoleServer> => {
  const log = options.log ?? (() => undefined);
  const app = new Hono();
  app.use('*', async (c, next) => {
    const started = Date.now();
    await next();
    // The path only: queries and bodies stay out of the log.
    log(`${c.req.method} ${c.req.path} ${c.res.status} ${Date.now() - started}ms`);
  });
  app.use('*', sameMachineOnly());
  app.route('/', options.assets);
  app.route('/', apiProxyRoutes(options));
  const server = await new Promise<ServerType>((resolve, reject) => {
    const started: ServerType = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: options.port }, () => resolve(started));
    started.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${options.port} on 127.0.0.1 is in use: pass --port <n> (0 picks a free one)`) : error),
    );
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: closerFor(server as Server),
  };
};
