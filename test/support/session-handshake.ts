/**
 * The handshake tests' kit: what a refused session open rejected with (its cause included), a
 * session init, a transport whose close() fails, and a handshake refused at `initialize`.
 * Registers nothing when imported.
 */
import { expect } from 'vitest';
import { isProviderRejection, type AgentError } from '@relvo-labs/agent-provider';
import type { CodexIterableTransport } from '../../src/index.js';
import type { FakeTransport } from './fake-transport.js';
import { count, CANARY_SECRET, reply } from './provider-frames.js';
import { recordingSink, WORKSPACE, type ProviderHarness } from './provider-harness.js';

export type HandshakeRefusal = AgentError & { cause?: unknown; error: unknown };

/** The AgentError `promise` rejected with, with the rejection's cause and the rejection itself. */
export async function rejectionOf(promise: Promise<unknown>): Promise<HandshakeRefusal> {
  const error: unknown = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  if (!isProviderRejection(error)) throw new Error(`not a ProviderRejection: ${String(error)}`);
  return { ...error.agentError, cause: error.cause, error };
}

/** A createSession request on `root` with `options` (unchecked: tests pass bad ones too). */
export function sessionInit(root = WORKSPACE, options: Record<string, unknown> = {}) {
  return {
    options: options as never,
    workspace: { root, ownership: 'borrowed' as const },
    sink: recordingSink(),
  };
}

/** A transport whose close() fails `failures` times with EPERM before it succeeds. */
export function closeFailing(
  t: FakeTransport,
  failures: number,
): CodexIterableTransport & { closeAttempts: number } {
  let left = failures;
  const wrapped = {
    closeAttempts: 0,
    incoming: t.incoming,
    send: (m: unknown) => t.send(m),
    close: async () => {
      wrapped.closeAttempts += 1;
      if (left > 0) {
        left -= 1;
        throw Object.assign(new Error(`cannot kill ${CANARY_SECRET}`), { code: 'EPERM' });
      }
      await t.close();
    },
  };
  return wrapped;
}

/**
 * Opens a session on `h`, answers `initialize` with `userAgent` (undefined: an empty result), and
 * resolves the refusal.
 */
export async function refusedAtInitialize(
  h: ProviderHarness,
  userAgent: unknown,
): Promise<HandshakeRefusal> {
  const opening = rejectionOf(h.openSession());
  await reply(h.transport, 'initialize', userAgent === undefined ? {} : { userAgent });
  return opening;
}

/** Nothing went out after `initialize`, the connection was closed once and none was kept. */
export function expectClosedAfterInitialize(h: ProviderHarness): void {
  expect(count(h.transport, 'thread/start')).toBe(0);
  expect(count(h.transport, 'initialized')).toBe(0);
  expect(h.transport.closeCalls).toBe(1);
  expect(h.provider.abandonedConnectionCount).toBe(0);
}
