/**
 * A scripted model in another process, driven over its control URL with the step API of the
 * in-process `ScriptedModelServer` (docs/testing.md §4.1). Every call is bounded: a control
 * request that does not complete in time rejects instead of waiting.
 */
import type { z } from 'zod';
import { codexConfigArgs, type CodexConfigArgsOptions } from './codex-config.js';
import {
  clearedSchema,
  controlErrorSchema,
  MAX_WAIT_MS,
  requestsReplySchema,
  statusSchema,
  type ScriptedModelStatus,
} from './model-control-schemas.js';
import type { RecordedRequest } from './model-server.js';
import type { ScriptedStep } from './sse-script.js';

/** What the in-process server and the out-of-process client both offer; `await` each call. */
export interface ScriptedModel {
  readonly baseUrl: string;
  configArgs(options?: Omit<CodexConfigArgsOptions, 'baseUrl'>): string[];
  enqueue(...steps: ScriptedStep[]): this | Promise<this>;
  clear(): number | Promise<number>;
  /** Every request the model received so far, in order. */
  readRequests(): Promise<readonly RecordedRequest[]>;
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
}

export interface ConnectOptions {
  /** The bound of each control request but `waitForRequests` (its own plus this). Default 10 s. */
  readonly timeoutMs?: number;
}

/** A control request that failed: its route and a code (HTTP refusal, timeout, unreachable). */
export class ScriptedModelControlError extends Error {
  constructor(
    readonly route: string,
    readonly code: string,
  ) {
    super(`scripted model control ${route}: ${code}`);
    this.name = 'ScriptedModelControlError';
  }
}

export class ScriptedModelClient implements ScriptedModel {
  private constructor(
    readonly controlUrl: string,
    readonly baseUrl: string,
    /** The model process's pid (e.g. to prove it outlived a host). */
    readonly pid: number,
    private readonly timeoutMs: number,
  ) {}

  /** Checks the process answers and learns its model URL. */
  static async connect(
    controlUrl: string,
    options: ConnectOptions = {},
  ): Promise<ScriptedModelClient> {
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(controlUrl)) {
      throw new Error('connectScriptedModel: controlUrl must be http://127.0.0.1:<port>');
    }
    const timeoutMs = options.timeoutMs ?? 10_000;
    const status = await call(controlUrl, 'GET', '/status', undefined, statusSchema, timeoutMs);
    return new ScriptedModelClient(controlUrl, status.baseUrl, status.pid, timeoutMs);
  }

  configArgs(options: Omit<CodexConfigArgsOptions, 'baseUrl'> = {}): string[] {
    return codexConfigArgs({ ...options, baseUrl: this.baseUrl });
  }

  /** Queues the steps; resolves once the process holds them (all or, if one is bad, none). */
  async enqueue(...steps: ScriptedStep[]): Promise<this> {
    await this.call('POST', '/enqueue', { steps }, statusSchema);
    return this;
  }

  async clear(): Promise<number> {
    return (await this.call('POST', '/clear', {}, clearedSchema)).cleared;
  }

  /** Steps queued and requests seen, now. */
  status(): Promise<ScriptedModelStatus> {
    return this.call('GET', '/status', undefined, statusSchema);
  }

  async readRequests(): Promise<readonly RecordedRequest[]> {
    return (await this.call('GET', '/requests', undefined, requestsReplySchema)).requests;
  }

  async waitForRequests(count: number, timeoutMs = 10_000): Promise<RecordedRequest[]> {
    const bounded = Math.min(timeoutMs, MAX_WAIT_MS);
    const body = { count, timeoutMs: bounded };
    const reply = await call(
      this.controlUrl,
      'POST',
      '/wait',
      body,
      requestsReplySchema,
      bounded + this.timeoutMs,
    );
    return reply.requests;
  }

  /** Asks the process to stop (it answers first, then exits). */
  async shutdown(): Promise<void> {
    await this.call('POST', '/shutdown', {}, statusSchema);
  }

  private call<T>(method: string, path: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
    return call(this.controlUrl, method, path, body, schema, this.timeoutMs);
  }
}

/** A scripted model process's client, from the `controlUrl` of its ready line. */
export function connectScriptedModel(
  controlUrl: string,
  options: ConnectOptions = {},
): Promise<ScriptedModelClient> {
  return ScriptedModelClient.connect(controlUrl, options);
}

async function call<T>(
  base: string,
  method: string,
  path: string,
  body: unknown,
  schema: z.ZodType<T>,
  timeoutMs: number,
): Promise<T> {
  const route = `${method} ${path}`;
  let response: Response;
  let json: unknown;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      signal: AbortSignal.timeout(timeoutMs),
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    json = await response.json();
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw new ScriptedModelControlError(route, timedOut ? 'timeout' : 'unreachable');
  }
  if (!response.ok) {
    const refused = controlErrorSchema.safeParse(json);
    throw new ScriptedModelControlError(
      route,
      refused.success ? refused.data.error : `http_${String(response.status)}`,
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ScriptedModelControlError(route, 'bad_reply');
  return parsed.data;
}
