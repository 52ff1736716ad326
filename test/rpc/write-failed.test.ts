/**
 * `send()` never drops a write error silently: a frame that cannot be written (a host's
 * iterable transport says false, the stdio transport refuses it) fails its request at once with an authoritative `write_failed`, instead of a deadline much
 * later; the stdio transport reports every unwritten frame.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isProviderRejection } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { createJsonRpcClient } from '../../src/rpc/client.js';
import { isAuthoritativeFailure } from '../../src/rpc/errors.js';
import { createCodexStdioTransport } from '../../src/transport/stdio.js';
import { isCodexTransportError, type CodexIterableTransport } from '../../src/transport/types.js';
import { testEnv } from '../support/processes.js';

const STAND_INS = resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  '..',
  'support',
  'stand-ins',
);

describe('a frame that is not written', () => {
  it('fails its request at once with an authoritative write_failed', async () => {
    const never = new Promise<never>(() => undefined);
    const transport: CodexIterableTransport = {
      send: () => false,
      incoming: {
        [Symbol.asyncIterator]: () => ({ next: () => never }),
      },
      close: () => Promise.resolve(),
    };
    const client = createJsonRpcClient({
      transport,
      requestTimeoutMs: 120_000,
      onServerRequest: () => false,
      onNotification: () => undefined,
      onDrop: () => undefined,
      onDiagnostic: () => undefined,
      onEnd: () => undefined,
      onFence: () => undefined,
    });
    const error = await client.request('turn/start', { threadId: 't' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isProviderRejection(error)).toBe(true);
    expect(isAuthoritativeFailure(error)).toBe(true);
    expect((error as { agentError: unknown }).agentError).toMatchObject({
      providerCode: 'write_failed',
    });
    expect(client.pendingCount).toBe(0);
  });

  it('the stdio transport refuses an unserialisable frame and any after close, typed', async () => {
    const transport = createCodexStdioTransport({
      executable: process.execPath,
      extraArgs: [join(STAND_INS, 'silent.cjs')],
      cwd: process.cwd(),
      env: testEnv(),
    });
    const codeOf = (sent: Promise<void>): Promise<unknown> =>
      sent.then(
        () => 'accepted',
        (e: unknown) => (isCodexTransportError(e) ? e.code : e),
      );
    try {
      expect(await codeOf(transport.send({ id: 1, method: 'x', params: { n: 1n } }))).toBe(
        'write_refused',
      );
      const cyclic: Record<string, unknown> = {};
      cyclic['self'] = cyclic;
      expect(await codeOf(transport.send(cyclic))).toBe('write_refused');
      expect(await codeOf(transport.send(undefined))).toBe('write_refused');
      expect(await codeOf(transport.send({ id: 2, method: 'x' }))).toBe('accepted');
    } finally {
      await transport.close();
    }
    expect(await codeOf(transport.send({ id: 3, method: 'x' }))).toBe('write_refused');
  });

  it('refuses NaN, Infinity and negative durations in the stdio configuration', () => {
    for (const bad of [{ closeGraceMs: NaN }, { killGraceMs: Infinity }, { exitDrainMs: -1 }]) {
      expect(() => createCodexStdioTransport({ executable: 'codex', cwd: '/', ...bad })).toThrow(
        /invalid codex stdio transport configuration/,
      );
    }
  });
});
