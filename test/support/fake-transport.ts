/**
 * A scripted CodexTransport for frame tests. The test pushes inbound frames (and EOF or a
 * failure) and reads every outbound frame. Every frame the adapter writes passes one shared
 * assertion: it must validate against the generated JSON Schema of the baseline release
 * (ClientRequest, ClientNotification, the matching *Response of a server request, or the
 * JSON-RPC error shape) and carry no `jsonrpc` member. `send()` never throws: violations are
 * recorded and `useFakeTransport()` fails the test that caused them when it finishes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { onTestFinished } from 'vitest';
import type { CodexIterableTransport } from '../../src/transport/types.js';
import { CODEX_APP_SERVER_VERSION } from '../../src/constants.js';
import { createSchemaAjv, methodOf, type UnionFile } from '../../scripts/lib/json-schema.js';
import { SCHEMAS_DIR } from './paths.js';

export const PINNED_SCHEMA_VERSION = CODEX_APP_SERVER_VERSION;
const FIXTURE_SCHEMA_DIR = join(SCHEMAS_DIR, PINNED_SCHEMA_VERSION, 'json');
/** Development override only: point at a freshly generated schema folder. */
export const SCHEMA_DIR_ENV = 'CODEX_SCHEMA_DIR';

export function pinnedSchemaDir(): string {
  const override = process.env[SCHEMA_DIR_ENV];
  return override !== undefined && override !== '' ? override : FIXTURE_SCHEMA_DIR;
}

export interface SchemaSet {
  /** Validator of a ClientRequest with this method; undefined when the method is not in the union. */
  clientRequest(method: string): ValidateFunction | undefined;
  readonly clientNotification: ValidateFunction;
  readonly rpcResponse: ValidateFunction;
  readonly rpcError: ValidateFunction;
  /** Validator of the result answering this server-request method (from ServerRequest.json). */
  serverResponse(method: string): ValidateFunction | undefined;
  readonly serverRequestMethods: readonly string[];
}

let cachedSchemas: SchemaSet | undefined;

function readSchema(dir: string, file: string): object {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as object;
}

/**
 * Loads the pinned schema folder. Validators compile lazily: the request union is checked
 * through the one variant its method selects (the variants' method enums are disjoint, so this
 * is exactly the oneOf), which avoids compiling all ~100 request shapes up front.
 */
export function loadPinnedSchemas(): SchemaSet {
  if (cachedSchemas !== undefined) return cachedSchemas;
  const dir = pinnedSchemaDir();
  if (!existsSync(join(dir, 'ClientRequest.json'))) {
    throw new Error(
      `pinned codex ${PINNED_SCHEMA_VERSION} JSON Schema not found in ${dir}; ` +
        `check in fixtures or set ${SCHEMA_DIR_ENV}`,
    );
  }
  // Each generated file is self-contained (local #/definitions, no $id), so one Ajv can hold all.
  const ajv = createSchemaAjv({ allErrors: false });
  const compile = (schema: object): ValidateFunction => ajv.compile(schema);
  const requests = readSchema(dir, 'ClientRequest.json') as UnionFile;
  const requestVariants = new Map(requests.oneOf.map((v) => [methodOf(v), v] as const));
  const requestValidators = new Map<string, ValidateFunction>();

  const responseFiles = new Map<string, string>();
  for (const variant of (readSchema(dir, 'ServerRequest.json') as UnionFile).oneOf) {
    const paramsName = variant.properties.params?.$ref?.split('/').pop();
    if (paramsName?.endsWith('Params') !== true)
      throw new Error('unexpected ServerRequest.json layout');
    responseFiles.set(methodOf(variant), `${paramsName.slice(0, -'Params'.length)}Response.json`);
  }
  const responseValidators = new Map<string, ValidateFunction>();

  cachedSchemas = {
    clientRequest(method) {
      const variant = requestVariants.get(method);
      if (variant === undefined) return undefined;
      let validate = requestValidators.get(method);
      if (validate === undefined) {
        validate = compile({
          $schema: requests.$schema,
          definitions: requests.definitions,
          ...variant,
        });
        requestValidators.set(method, validate);
      }
      return validate;
    },
    clientNotification: compile(readSchema(dir, 'ClientNotification.json')),
    rpcResponse: compile(readSchema(dir, 'JSONRPCResponse.json')),
    rpcError: compile(readSchema(dir, 'JSONRPCError.json')),
    serverResponse(method) {
      const file = responseFiles.get(method);
      if (file === undefined) return undefined;
      let validate = responseValidators.get(method);
      if (validate === undefined) {
        validate = compile(readSchema(dir, file));
        responseValidators.set(method, validate);
      }
      return validate;
    },
    serverRequestMethods: [...responseFiles.keys()],
  };
  return cachedSchemas;
}

function describeErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`)
    .join('; ');
}

function idKey(id: unknown): string {
  return `${typeof id}:${String(id)}`;
}

export interface FakeTransport extends CodexIterableTransport {
  /** Deliver one decoded inbound frame. A server request's id is remembered for reply checks. */
  push(frame: unknown): void;
  /** End the inbound stream normally. */
  end(): void;
  /** End the inbound stream with a failure (the iterator rejects with `error`). */
  fail(error: unknown): void;
  /** Outbound frames as written (the objects passed to send). */
  readonly sentRaw: readonly unknown[];
  /** Outbound frames as they would appear on the wire (JSON round trip). */
  readonly sent: readonly Record<string, unknown>[];
  /** Schema and shape violations seen so far. */
  readonly violations: readonly string[];
  readonly closeCalls: number;
  /** Throws, listing every violation, if any outbound frame failed the shared assertion. */
  assertAllFramesValid(): void;
  /**
   * Resolves once the consumer has taken every pushed item and is waiting for more (or has
   * seen the end). Bounded by event-loop turns, not wall time, so it also works while
   * setTimeout is faked; rejects with a clear message when the consumer never catches up.
   */
  drained(): Promise<void>;
}

export function createFakeTransport(): FakeTransport {
  const schemas = loadPinnedSchemas();
  const queue: ({ frame: unknown } | { done: true } | { error: unknown })[] = [];
  const waiters: (() => void)[] = [];
  const sentRaw: unknown[] = [];
  const sent: Record<string, unknown>[] = [];
  const violations: string[] = [];
  const serverRequests = new Map<string, string>();
  let consumerIdle = false;
  let endConsumed = false;
  let finished = false;
  let closed = false;
  let closeCalls = 0;

  function wake(): void {
    for (const w of waiters.splice(0)) w();
  }

  function enqueue(item: (typeof queue)[number]): void {
    if (finished) throw new Error('fake transport: stream already ended');
    if (!('frame' in item)) finished = true;
    queue.push(item);
    wake();
  }

  function check(raw: unknown): void {
    const where = `outbound frame #${sentRaw.length}`;
    let wire: unknown;
    try {
      wire = JSON.parse(JSON.stringify(raw)) as unknown;
    } catch {
      violations.push(`${where}: not JSON-serialisable`);
      return;
    }
    if (typeof wire !== 'object' || wire === null || Array.isArray(wire)) {
      violations.push(`${where}: not a JSON object`);
      return;
    }
    const frame = wire as Record<string, unknown>;
    sent.push(frame);
    if (Object.hasOwn(frame, 'jsonrpc')) violations.push(`${where}: carries a jsonrpc member`);
    const hasMethod = Object.hasOwn(frame, 'method');
    const hasId = Object.hasOwn(frame, 'id');
    const run = (validate: ValidateFunction, label: string): void => {
      if (!validate(frame)) violations.push(`${where} (${label}): ${describeErrors(validate)}`);
    };
    if (hasMethod && hasId) {
      const validate =
        typeof frame.method === 'string' ? schemas.clientRequest(frame.method) : undefined;
      if (validate === undefined)
        violations.push(`${where}: not a ClientRequest method of the pinned schema`);
      else run(validate, 'ClientRequest');
    } else if (hasMethod) run(schemas.clientNotification, 'ClientNotification');
    else if (Object.hasOwn(frame, 'error')) run(schemas.rpcError, 'JSONRPCError');
    else if (Object.hasOwn(frame, 'result')) {
      run(schemas.rpcResponse, 'JSONRPCResponse');
      const method = serverRequests.get(idKey(frame.id));
      const validate = method === undefined ? undefined : schemas.serverResponse(method);
      if (validate === undefined)
        violations.push(`${where}: result for an id the server never requested`);
      else if (!validate(frame.result)) {
        violations.push(`${where} (${method ?? ''} response): ${describeErrors(validate)}`);
      }
    } else violations.push(`${where}: neither request, notification nor reply`);
  }

  const incoming: AsyncIterable<unknown> = {
    [Symbol.asyncIterator]() {
      return {
        next: async (): Promise<IteratorResult<unknown>> => {
          while (queue.length === 0) {
            consumerIdle = true;
            await new Promise<void>((r) => waiters.push(r));
          }
          consumerIdle = false;
          const item = queue.shift()!;
          if ('frame' in item) return { done: false, value: item.frame };
          queue.unshift(item); // stay ended for any further next()
          endConsumed = true;
          if ('error' in item) throw item.error;
          return { done: true, value: undefined };
        },
      };
    },
  };

  return {
    incoming,
    send(message) {
      // like the stdio transport: nothing is written once closed
      if (closed) return false;
      try {
        check(message);
      } catch (err) {
        violations.push(`validator crashed: ${String(err)}`);
      }
      sentRaw.push(message);
      return true;
    },
    async close() {
      closeCalls += 1;
      closed = true;
      if (!finished) enqueue({ done: true });
    },
    push(frame) {
      if (typeof frame === 'object' && frame !== null && 'method' in frame && 'id' in frame) {
        const method = (frame as { method: unknown }).method;
        if (typeof method === 'string')
          serverRequests.set(idKey((frame as { id: unknown }).id), method);
      }
      enqueue({ frame });
    },
    end() {
      enqueue({ done: true });
    },
    fail(error) {
      enqueue({ error });
    },
    sentRaw,
    sent,
    violations,
    get closeCalls() {
      return closeCalls;
    },
    assertAllFramesValid() {
      if (violations.length > 0) {
        throw new Error(
          `fake transport: ${violations.length} invalid outbound frame(s):\n${violations.join('\n')}`,
        );
      }
    },
    async drained() {
      for (let turn = 0; turn < 1000; turn += 1) {
        await new Promise<void>((r) => setImmediate(r));
        if (endConsumed || (consumerIdle && queue.length === 0)) return;
      }
      throw new Error(`fake transport: consumer did not drain (${queue.length} item(s) queued)`);
    },
  };
}

/** A fake transport whose frames are checked automatically when the current test finishes. */
export function useFakeTransport(): FakeTransport {
  const transport = createFakeTransport();
  onTestFinished(() => {
    transport.assertAllFramesValid();
  });
  return transport;
}
