/**
 * The control side of a scripted model in its own process: a second HTTP listener on 127.0.0.1
 * that queues steps and reports what the model saw (docs/testing.md §4.1). Every request is
 * bounded: a body that never completes, or a client that never reads, is cut off.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import {
  MAX_WAIT_MS,
  enqueueRequestSchema,
  waitRequestSchema,
  type ControlErrorCode,
  type ScriptedModelStatus,
} from './model-control-schemas.js';
import type { ScriptedModelServer } from './model-server.js';

/** A control body larger than this is refused (a step list is small). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** How long a control request may take to arrive whole, by default. */
export const CONTROL_TIMEOUT_MS = 10_000;

export interface ControlServer {
  readonly url: string;
  /** Resolves when POST /shutdown was received. */
  readonly shutdownRequested: Promise<void>;
  close(): Promise<void>;
}

class Refused extends Error {
  constructor(
    readonly status: number,
    readonly code: ControlErrorCode,
  ) {
    super(code);
  }
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Refused(413, 'too_large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text === '' ? undefined : JSON.parse(text));
      } catch {
        reject(new Refused(400, 'bad_request'));
      }
    });
    req.on('error', reject);
  });
}

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new Refused(400, 'bad_request');
  return parsed.data;
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Serve control requests for `model` on 127.0.0.1:`port` (0: any free port). */
export async function startControlServer(
  model: ScriptedModelServer,
  port = 0,
  timeoutMs = CONTROL_TIMEOUT_MS,
): Promise<ControlServer> {
  let requestShutdown = (): void => undefined;
  const shutdownRequested = new Promise<void>((resolve) => {
    requestShutdown = resolve;
  });
  // a request (headers and body) not whole within the bound is answered 408 and cut off;
  // node looks for such requests every `connectionsCheckingInterval`
  const server: Server = createServer({
    requestTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.floor(timeoutMs / 4)),
  });
  const url = (): string => `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  const status = (): ScriptedModelStatus => ({
    baseUrl: model.baseUrl,
    controlUrl: url(),
    pid: process.pid,
    pending: model.pending,
    requests: model.requests.length,
  });

  /** The answer's body (status 200), or a `Refused` thrown. */
  async function route(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const path = (req.url ?? '').split('?')[0] ?? '';
    switch (`${req.method ?? ''} ${path}`) {
      case 'GET /status':
        return status();
      case 'GET /requests':
        return { requests: model.requests };
      case 'POST /enqueue': {
        const { steps } = parse(enqueueRequestSchema, await readJson(req));
        model.enqueue(...steps);
        return status();
      }
      case 'POST /clear':
        await readJson(req);
        return { cleared: model.clear() };
      case 'POST /wait': {
        const wait = parse(waitRequestSchema, await readJson(req));
        // the socket may not outlive the wait's own bound
        req.socket.setTimeout(Math.min(wait.timeoutMs, MAX_WAIT_MS) + timeoutMs);
        const requests = await model
          .waitForRequests(wait.count, wait.timeoutMs)
          .catch(() => undefined);
        if (requests === undefined) throw new Refused(408, 'wait_timeout');
        return { requests };
      }
      case 'POST /shutdown':
        await readJson(req);
        // stop only once the answer is out, so the caller sees it
        res.once('finish', requestShutdown);
        return status();
      default:
        throw new Refused(404, 'not_found');
    }
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    route(req, res).then(
      (body) => {
        reply(res, 200, body);
      },
      (error: unknown) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        const refused = error instanceof Refused ? error : new Refused(400, 'bad_request');
        reply(res, refused.status, { error: refused.code });
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      resolve();
    });
  });
  return {
    url: url(),
    shutdownRequested,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
  };
}
