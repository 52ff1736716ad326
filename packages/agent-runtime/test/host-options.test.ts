/**
 * What a provider's createSession resolves with and every numeric option a host passes are
 * checked: a non-session is refused, typed, with no unhandled rejection; a NaN never removes a
 * bound; an unknown option key is named.
 */
import { join } from 'node:path';
import type { AgentProvider } from '@relvo-labs/agent-provider';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  isRuntimeError,
  openSqliteEventStore,
  type SqliteEventStoreOptions,
  type SubscribeOptions,
} from '@relvo-labs/agent-runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { onCleanup, scriptedRuntime, tempDir, thrownRuntimeError } from './support.js';

let unhandled: unknown[] = [];
const collect = (reason: unknown): void => {
  unhandled.push(reason);
};
beforeEach(() => {
  unhandled = [];
  process.on('unhandledRejection', collect);
});
afterEach(() => {
  process.off('unhandledRejection', collect);
});

/** Lets pending rejections surface: a few macrotask turns, bounded. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise<void>((r) => setImmediate(r));
}

describe('createSession must resolve with a session', () => {
  it.each([
    ['null', null],
    ['{}', {}],
    ['an object with dispose only', { dispose: () => Promise.resolve() }],
  ])('%s is refused, typed, and nothing rejects unhandled', async (_name, resolved) => {
    const { provider } = createScriptedProvider();
    const broken: AgentProvider = {
      describe: () => provider.describe(),
      createSession: () => Promise.resolve(resolved as never),
    };
    const runtime = await createAgentRuntime({
      providers: { scripted: () => broken },
      config: { defaultProfile: 'p', profiles: { p: { provider: 'scripted' } } },
    });
    onCleanup(() => runtime.shutdown());
    const session = await runtime.openSession({ workspace: tempDir() });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const error = await session.submitTurn({ input: 'x' }).catch((e: unknown) => e);
      expect(isRuntimeError(error) && [error.reason, error.code, error.error.retryable]).toEqual([
        'provider_session_invalid',
        'provider_contract_violation',
        false,
      ]);
    }
    await session.close();
    await settle();
    expect(unhandled).toEqual([]);
  });
});

describe('numeric options are bounded, unknown keys named', () => {
  it('liveBufferLimit: NaN, 0 and Infinity are refused; a typo is named', async () => {
    const { session } = await scriptedRuntime();
    for (const liveBufferLimit of [Number.NaN, 0, Number.POSITIVE_INFINITY, 1.5]) {
      const error = thrownRuntimeError(() => session.subscribe({ liveBufferLimit }));
      expect([error.reason, error.error.details?.path]).toEqual([
        'option_invalid',
        'liveBufferLimit',
      ]);
    }
    const typo = thrownRuntimeError(() =>
      session.subscribe({ liveBufferLimt: 8 } as SubscribeOptions),
    );
    expect(typo.error.details?.issues).toEqual([
      {
        path: 'liveBufferLimt',
        code: 'unknown_key',
        key: 'liveBufferLimt',
        suggestion: 'liveBufferLimit',
      },
    ]);
  });

  it('closeGraceMs NaN is refused by createAgentRuntime', async () => {
    const error = await createAgentRuntime({
      providers: { scripted: () => createScriptedProvider().provider },
      config: { defaultProfile: 'p', profiles: { p: { provider: 'scripted' } } },
      closeGraceMs: Number.NaN,
    }).catch((e: unknown) => e);
    expect(isRuntimeError(error) && [error.reason, error.error.details?.path]).toEqual([
      'option_invalid',
      'closeGraceMs',
    ]);
  });

  it('openSqliteEventStore: busyTimeoutMs NaN and an unknown synchronous mode are refused', () => {
    const path = join(tempDir(), 'events.db');
    const nan = thrownRuntimeError(() => openSqliteEventStore({ path, busyTimeoutMs: Number.NaN }));
    expect([nan.reason, nan.error.details?.path]).toEqual(['option_invalid', 'busyTimeoutMs']);
    const mode = thrownRuntimeError(() =>
      openSqliteEventStore({ path, synchronous: 'NORMAL' } as unknown as SqliteEventStoreOptions),
    );
    expect(mode.error.details?.issues).toEqual([
      { path: 'synchronous', code: 'not_allowed', allowed: ['full', 'normal'] },
    ]);
  });
});
