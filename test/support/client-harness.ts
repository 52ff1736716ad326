import { isProviderRejection } from '@relvo-labs/agent-provider';
import { expect } from 'vitest';
import {
  createJsonRpcClient,
  type JsonRpcClient,
  type JsonRpcClientOptions,
  type RpcDiagnostic,
  type RpcEnd,
  type RpcNotification,
  type ServerRequestOffer,
} from '../../src/rpc/client.js';
import {
  isAuthoritativeFailure,
  isCodexRpcError,
  type CodexRpcError,
} from '../../src/rpc/errors.js';
import type { UnclassifiableReason } from '../../src/rpc/frames.js';
import type { FenceReason } from '../../src/session/state.js';
import type { DropReason } from '../../src/transport/types.js';
import { useFakeTransport, type FakeTransport } from './fake-transport.js';

export const INITIALIZE_PARAMS = {
  clientInfo: { name: 'relvo-test', version: '0.0.1' },
  capabilities: null,
};

export const INTERRUPT_PARAMS = { threadId: 'thr_1', turnId: 'turn_1' };

/** A server request the pinned schema answers with `{ answers: {} }` (used as a generic probe). */
export const QUESTION_METHOD = 'item/tool/requestUserInput';
export const QUESTION_ANSWER = { answers: {} };

export interface Recorded {
  readonly drops: { reason: DropReason; detail?: UnclassifiableReason }[];
  readonly diagnostics: RpcDiagnostic[];
  readonly notifications: RpcNotification[];
  readonly ends: RpcEnd[];
  readonly fences: FenceReason[];
  readonly offers: ServerRequestOffer[];
}

export interface ClientHarness {
  readonly transport: FakeTransport;
  readonly client: JsonRpcClient;
  readonly seen: Recorded;
}

/**
 * A client over a fake transport that records every callback. By default the handler takes
 * every server request (returns true) and leaves answering to the test.
 */
export function startClient(
  overrides: Partial<Omit<JsonRpcClientOptions, 'transport'>> = {},
): ClientHarness {
  const transport = useFakeTransport();
  const seen: Recorded = {
    drops: [],
    diagnostics: [],
    notifications: [],
    ends: [],
    fences: [],
    offers: [],
  };
  const client = createJsonRpcClient({
    transport,
    requestTimeoutMs: 0,
    onServerRequest: (offer) => {
      seen.offers.push(offer);
      return true;
    },
    onNotification: (n) => seen.notifications.push(n),
    onDrop: (reason, detail) =>
      seen.drops.push(detail === undefined ? { reason } : { reason, detail }),
    onDiagnostic: (d) => seen.diagnostics.push(d),
    onEnd: (end) => seen.ends.push(end),
    onFence: (reason) => seen.fences.push(reason),
    ...overrides,
  });
  return { transport, client, seen };
}

/** Settles to a tagged outcome so a test can assert a promise is still pending. */
export function track<T>(promise: Promise<T>): {
  readonly state: 'pending' | 'resolved' | 'rejected';
  readonly value: unknown;
} {
  const box: { state: 'pending' | 'resolved' | 'rejected'; value: unknown } = {
    state: 'pending',
    value: undefined,
  };
  promise.then(
    (value) => {
      box.state = 'resolved';
      box.value = value;
    },
    (error: unknown) => {
      box.state = 'rejected';
      box.value = error;
    },
  );
  return box;
}

/** Asserts `error` is the client's typed failure and an uncertain one: codex may have acted. */
export function expectUncertain(error: unknown): CodexRpcError {
  expect(isCodexRpcError(error)).toBe(true);
  expect(isProviderRejection(error)).toBe(false);
  expect(isAuthoritativeFailure(error)).toBe(false);
  return error as CodexRpcError;
}
