/**
 * A scripted Responses-API server on 127.0.0.1 for driving a real codex without credentials
 * or network. Each POST /v1/responses takes the next scripted step from a FIFO queue.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { codexConfigArgs, type CodexConfigArgsOptions } from './codex-config.js';
import type { ScriptedModel } from './model-client.js';
import { encodeSseEvent, planFor, type ScriptedStep, type SsePlan } from './sse-script.js';

export interface RecordedRequest {
  /** 0-based arrival order. */
  readonly index: number;
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  readonly body: unknown;
  readonly bodyBytes: number;
  /** Which scripted step answered it; undefined when the queue was empty or the path unknown. */
  readonly step: ScriptedStep['kind'] | undefined;
}

export interface ModelServerOptions {
  /** Delay used for slow streams; inject to control time in tests. Default: setTimeout. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** A fixed port on 127.0.0.1 (e.g. one a host's config names); default 0, any free port. */
  readonly port?: number;
}

const defaultSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

function parseJson(buffer: Buffer): unknown {
  try {
    return JSON.parse(buffer.toString('utf8'));
  } catch {
    return undefined;
  }
}

export class ScriptedModelServer implements ScriptedModel {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: ScriptedStep[] = [];
  private readonly open = new Set<ServerResponse>();
  private readonly waiters = new Set<() => void>();
  private closed = false;

  private constructor(
    private readonly server: Server,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {}

  /** Listen on 127.0.0.1 (never another interface), on `port` or an ephemeral one. */
  static async start(options: ModelServerOptions = {}): Promise<ScriptedModelServer> {
    const port = options.port ?? 0;
    if (!Number.isInteger(port) || port < 0 || port > 65_535) {
      throw new RangeError('ScriptedModelServer: port must be an integer in 0..65535');
    }
    const server = createServer();
    const instance = new ScriptedModelServer(server, options.sleep ?? defaultSleep);
    server.on('request', (req, res) => {
      instance.handle(req, res).catch(() => {
        res.destroy();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // a port already in use rejects here (EADDRINUSE): never a silent move to another one
      server.listen(port, '127.0.0.1', () => {
        resolve();
      });
    });
    return instance;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The provider base_url codex needs (it appends `/responses`). */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** `codexConfigArgs` pointed at this server: the `-c` overrides for a provider's `extraArgs`. */
  configArgs(options: Omit<CodexConfigArgsOptions, 'baseUrl'> = {}): string[] {
    return codexConfigArgs({ ...options, baseUrl: this.baseUrl });
  }

  enqueue(...steps: ScriptedStep[]): this {
    this.queue.push(...steps);
    return this;
  }

  /** Drops every step not yet consumed (e.g. the retries codex did not make); returns how many. */
  clear(): number {
    return this.queue.splice(0).length;
  }

  /** Steps not yet consumed. */
  get pending(): number {
    return this.queue.length;
  }

  /** A copy of `requests` (the same call as on a model in another process). */
  readRequests(): Promise<readonly RecordedRequest[]> {
    return Promise.resolve([...this.requests]);
  }

  /** Resolves once `count` requests have arrived; rejects with a clear message after `timeoutMs`. */
  async waitForRequests(count: number, timeoutMs = 10_000): Promise<RecordedRequest[]> {
    if (this.requests.length >= count) return this.requests.slice(0, count);
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (this.requests.length < count) return;
        cleanup();
        resolve(this.requests.slice(0, count));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `model server: expected ${count} request(s) within ${timeoutMs} ms, got ${this.requests.length}`,
          ),
        );
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
    });
  }

  /** End every open response (stalled ones included) and stop listening. */
  async close(): Promise<void> {
    this.closed = true;
    for (const res of this.open) res.destroy();
    this.open.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => {
      this.server.close(() => {
        resolve();
      });
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '').split('?')[0] ?? '';
    const routed = req.method === 'POST' && path === '/v1/responses';
    const step = routed ? this.queue.shift() : undefined;
    const index = this.requests.length;
    this.requests.push({
      index,
      method: req.method ?? '',
      path,
      headers: req.headers,
      body: parseJson(raw),
      bodyBytes: raw.length,
      step: step?.kind,
    });
    for (const waiter of [...this.waiters]) waiter();

    if (!routed) {
      sendJson(res, 404, {
        error: { type: 'scripted_unknown_route', message: `no route ${req.method ?? ''} ${path}` },
      });
      return;
    }
    if (step === undefined) {
      // Loud on purpose: a test that under-scripts the model should fail with this body in view.
      sendJson(res, 500, {
        error: {
          type: 'scripted_queue_empty',
          message: `scripted model server: no step left for request #${index}`,
        },
      });
      return;
    }
    if (step.kind === 'httpError') {
      const body = typeof step.body === 'string' ? step.body : JSON.stringify(step.body ?? {});
      res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
      res.end(body);
      return;
    }
    await this.stream(res, planFor(step));
  }

  private async stream(res: ServerResponse, plan: SsePlan): Promise<void> {
    this.open.add(res);
    res.on('close', () => this.open.delete(res));
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      ...plan.headers,
    });
    res.flushHeaders();
    for (const event of plan.events) {
      if (
        plan.delayMs > 0 &&
        (plan.delayedTypes === undefined || plan.delayedTypes.has(event.type))
      ) {
        await this.sleep(plan.delayMs);
      }
      // The client may have gone (interrupt) or the server may be closing.
      if (this.closed || res.destroyed || res.writableEnded) return;
      // Wait for the flush so a following destroy() cannot discard what was already sent.
      await new Promise<void>((resolve) => {
        res.write(encodeSseEvent(event), () => {
          resolve();
        });
      });
    }
    if (plan.ending === 'end') {
      res.end();
    } else if (plan.ending === 'destroy') {
      // No terminating chunk: the client sees a broken body, like a dropped upstream.
      res.destroy();
    }
    // 'stall': leave it open; close() or the client ends it.
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** `input` items of a recorded request body (empty when absent). */
export function requestInputItems(request: RecordedRequest): readonly Record<string, unknown>[] {
  const body = request.body;
  if (typeof body !== 'object' || body === null || !('input' in body) || !Array.isArray(body.input))
    return [];
  return body.input.filter(
    (x): x is Record<string, unknown> => typeof x === 'object' && x !== null,
  );
}

/** The `function_call_output.output` the model received for `callId`, if any. */
export function functionCallOutput(request: RecordedRequest, callId: string): string | undefined {
  const item = requestInputItems(request).find(
    (i) => i.type === 'function_call_output' && i.call_id === callId,
  );
  const output = item?.output;
  return typeof output === 'string' ? output : undefined;
}
