/**
 * The client is pushed each frame by the transport and handles it at once, in order: a burst a
 * transport pushes in one go is handled in that go, a throwing notification handler costs only a
 * diagnostic, and an end comes after every frame pushed before it.
 */
import { describe, expect, it } from 'vitest';
import { createJsonRpcClient, type RpcDiagnostic } from '../../src/rpc/client.js';
import type { CodexFrameSink } from '../../src/transport/types.js';

function start(onNotification: (method: string) => void) {
  const diagnostics: RpcDiagnostic[] = [];
  let sink: CodexFrameSink | undefined;
  const client = createJsonRpcClient({
    transport: {
      start: (next) => {
        sink = next;
      },
      send: () => Promise.resolve(),
      close: () => Promise.resolve(),
    },
    requestTimeoutMs: 0,
    onServerRequest: () => false,
    onNotification: ({ method }) => {
      onNotification(method);
    },
    onDrop: () => undefined,
    onDiagnostic: (d) => diagnostics.push(d),
    onEnd: () => undefined,
    onFence: () => undefined,
  });
  /** Pushes frames, then the end, in one synchronous go once the client has started. */
  const burst = async (frames: readonly unknown[]): Promise<void> => {
    await Promise.resolve();
    if (sink === undefined) throw new Error('the client did not start its transport');
    for (const frame of frames) sink.onFrame(frame);
    sink.onEnd();
  };
  return { burst, client, diagnostics };
}

describe('frames pushed by the transport', () => {
  it('handles a pushed burst in order in one go; the reply settles its request as it is handled', async () => {
    const log: string[] = [];
    const { burst, client } = start((m) => log.push(m));
    const reply = client.request('turn/start', {}).then(() => log.push('resumed'));
    await burst([{ method: 'a' }, { id: 1, result: {} }, { method: 'b' }, { method: 'c' }]);
    await reply;
    await client.ended;
    // the awaiter runs after the synchronous burst: a turn's frames that come before its
    // binding are held by the session (test/session/turn-ownership.test.ts)
    expect(log).toEqual(['a', 'b', 'c', 'resumed']);
  });

  it('a throwing notification handler is a diagnostic; the rest of the burst is still handled', async () => {
    const seen: string[] = [];
    const { burst, client, diagnostics } = start((m) => {
      seen.push(m);
      if (m === 'bad') throw new Error('host bug');
    });
    await burst([{ method: 'bad' }, { method: 'good' }]);
    await client.ended;
    expect(seen).toEqual(['bad', 'good']);
    expect(diagnostics).toEqual([{ token: 'callback_failed', level: 'warning' }]);
  });
});
