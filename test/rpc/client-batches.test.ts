/**
 * The client drains a FrameQueue a burst at a time. What must not change with that: whatever
 * awaited a reply resumes before the frames behind the reply are handled (a turn is bound before
 * its first delta is routed), and a throwing notification handler costs only a diagnostic.
 */
import { describe, expect, it } from 'vitest';
import { createJsonRpcClient, type RpcDiagnostic } from '../../src/rpc/client.js';
import { FrameQueue } from '../../src/transport/frame-queue.js';

function start(onNotification: (method: string) => void) {
  const incoming = new FrameQueue();
  const diagnostics: RpcDiagnostic[] = [];
  const client = createJsonRpcClient({
    transport: { send: () => true, incoming, close: () => Promise.resolve() },
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
  return { incoming, client, diagnostics };
}

describe('draining a FrameQueue in bursts', () => {
  it('resumes the awaiter of a reply before the notifications pushed in the same burst', async () => {
    const log: string[] = [];
    const { incoming, client } = start((m) => log.push(m));
    const reply = client.request('turn/start', {}).then(() => log.push('resumed'));
    incoming.push({ method: 'a' });
    incoming.push({ id: 1, result: {} });
    incoming.push({ method: 'b' });
    incoming.push({ method: 'c' });
    incoming.end();
    await reply;
    await client.ended;
    expect(log).toEqual(['a', 'resumed', 'b', 'c']);
  });

  it('a throwing notification handler is a diagnostic; the rest of the burst is still handled', async () => {
    const seen: string[] = [];
    const { incoming, client, diagnostics } = start((m) => {
      seen.push(m);
      if (m === 'bad') throw new Error('host bug');
    });
    incoming.push({ method: 'bad' });
    incoming.push({ method: 'good' });
    incoming.end();
    await client.ended;
    expect(seen).toEqual(['bad', 'good']);
    expect(diagnostics).toEqual([{ token: 'callback_failed', level: 'warning' }]);
  });
});
