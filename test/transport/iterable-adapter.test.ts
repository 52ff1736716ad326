/**
 * A host's own transport given as an async iterable of frames and a synchronous write function
 * drives a whole session through the provider: the adapter reads it with one `for await`, and a
 * write it refuses fails the request typed.
 */
import { describe, expect, it } from 'vitest';
import { fromIterableTransport } from '../../src/transport/iterable.js';
import type { CodexIterableTransport } from '../../src/transport/types.js';
import { completed, delta, open, push, startBound } from '../support/provider-frames.js';
import { createProviderHarness } from '../support/provider-harness.js';

/** A host transport: lines the test pushes, parsed by the host into its frames. */
function hostTransport(write: (line: string) => boolean) {
  const lines: (string | undefined)[] = [];
  let wake: (() => void) | undefined;
  async function* incoming(): AsyncGenerator {
    for (;;) {
      while (lines.length === 0) await new Promise<void>((r) => (wake = r));
      const line = lines.shift();
      if (line === undefined) return;
      yield JSON.parse(line) as unknown;
    }
  }
  const transport: CodexIterableTransport = {
    send: (message) => write(JSON.stringify(message)),
    incoming: incoming(),
    close: () => Promise.resolve(),
  };
  const push = (line: string | undefined): void => {
    lines.push(line);
    wake?.();
  };
  return { transport, push };
}

describe('fromIterableTransport', () => {
  it('pushes every frame of the iterable to the sink in order, then the end', async () => {
    const { transport, push } = hostTransport(() => true);
    const seen: unknown[] = [];
    const ended = new Promise<unknown>((resolve) => {
      fromIterableTransport(transport).start({
        onFrame: (f) => seen.push(f),
        onEnd: (error) => {
          resolve(error ?? 'eof');
        },
      });
    });
    push('{"method":"a"}');
    push('{"id":1,"result":{}}');
    push(undefined);
    expect(await ended).toBe('eof');
    expect(seen).toEqual([{ method: 'a' }, { id: 1, result: {} }]);
  });

  it('a failing iterable ends the sink with what it threw', async () => {
    const failure = new Error('host pipe broke');
    const transport: CodexIterableTransport = {
      send: () => true,
      incoming: {
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(failure) }),
      },
      close: () => Promise.resolve(),
    };
    const ended = new Promise<unknown>((resolve) => {
      fromIterableTransport(transport).start({ onFrame: () => undefined, onEnd: resolve });
    });
    expect(await ended).toBe(failure);
  });

  it('send resolves when the host wrote, rejects write_refused when it did not or threw', async () => {
    const written: string[] = [];
    let accept = true;
    const { transport } = hostTransport((line) => {
      if (line.includes('throw')) throw new Error('host bug');
      if (accept) written.push(line);
      return accept;
    });
    const adapted = fromIterableTransport(transport);
    await expect(adapted.send({ method: 'ok' })).resolves.toBeUndefined();
    accept = false;
    await expect(adapted.send({ method: 'no' })).rejects.toMatchObject({ code: 'write_refused' });
    await expect(adapted.send({ method: 'throw' })).rejects.toMatchObject({
      code: 'write_refused',
    });
    expect(written).toEqual(['{"method":"ok"}']);
  });

  it('a push transport is used as it is', () => {
    const push = {
      start: () => undefined,
      send: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    expect(fromIterableTransport(push)).toBe(push);
  });
});

describe('a host transport of lines and a write function, through the provider', () => {
  it('opens a session and runs a turn to completion; every frame the host wrote was one line', async () => {
    const lines: string[] = [];
    const h = createProviderHarness({}, (fake) => {
      // the host's connection: codex's lines as AsyncIterable<string>, parsed by the host
      async function* codexLines(): AsyncGenerator<string> {
        for await (const frame of fake.incoming) yield JSON.stringify(frame);
      }
      async function* frames(): AsyncGenerator {
        for await (const line of codexLines()) yield JSON.parse(line) as unknown;
      }
      const write = (line: string): boolean => {
        lines.push(line);
        return fake.send(JSON.parse(line) as unknown);
      };
      return { incoming: frames(), send: (message) => write(JSON.stringify(message)) };
    });
    const session = await open(h);
    const { run, sink } = await startBound(h, session, 't1');
    await push(h.transport, delta('t1', 'Hi'), completed('t1', 'completed'));
    expect((await run.completion).outcome).toBe('succeeded');
    expect(sink.ofType('run.message_delta').map((e) => e.text)).toEqual(['Hi']);
    expect(lines.map((l) => (JSON.parse(l) as { method?: string }).method)).toEqual(
      expect.arrayContaining(['initialize', 'initialized', 'thread/start', 'turn/start']),
    );
    await session.dispose();
  });
});
