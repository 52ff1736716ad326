/**
 * Backpressure on codex's stdin: `send` resolves once the pipe accepted the frame; when
 * `write()` says it is full, this and later frames wait for 'drain' in order, within a deadline,
 * and reject typed when the pipe closes first. A Writable with a tiny highWaterMark stands in for
 * the pipe; a child that does not read stands in for a slow codex.
 */
import { Writable } from 'node:stream';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createStdinWriter } from '../../src/transport/stdin-writer.js';
import { createCodexStdioTransport, type CodexStdioTransport } from '../../src/transport/stdio.js';
import { isCodexTransportError } from '../../src/transport/types.js';
import type { TimerClock } from '../../src/shared/unref-clock.js';
import { readFrames } from '../support/frame-reader.js';
import { testEnv } from '../support/processes.js';

const STAND_INS = resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  '..',
  'support',
  'stand-ins',
);

/** A pipe that takes chunks only when the test lets it (`flush`). */
function heldPipe() {
  const held: (() => void)[] = [];
  const written: string[] = [];
  const pipe = new Writable({
    highWaterMark: 16,
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString('utf8'));
      held.push(callback);
    },
  });
  const flush = (): void => {
    for (const done of held.splice(0)) done();
  };
  return { pipe, written, flush };
}

/** Timers the test fires by hand. */
function manualClock() {
  const timers = new Map<number, () => void>();
  let next = 0;
  const clock: TimerClock = {
    setTimeout(callback) {
      next += 1;
      timers.set(next, callback);
      return next;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
  };
  const fireAll = (): void => {
    for (const [id, fire] of [...timers]) {
      timers.delete(id);
      fire();
    }
  };
  return { clock, fireAll, pending: () => timers.size };
}

/** 'accepted', a transport error code, or 'pending' once the queue has settled. */
function outcome(sent: Promise<void>): { readonly value: () => string } {
  let value = 'pending';
  sent.then(
    () => (value = 'accepted'),
    (e: unknown) => (value = isCodexTransportError(e) ? e.code : 'untyped'),
  );
  return { value: () => value };
}

const settle = (): Promise<void> => new Promise((r) => setImmediate(r));
const big = { method: 'x', params: { text: 'y'.repeat(64) } };

describe('stdin writer over a pipe that fills', () => {
  it('waits for drain when write() says full, and writes later frames behind it in order', async () => {
    const { pipe, written, flush } = heldPipe();
    const { clock } = manualClock();
    const send = createStdinWriter(pipe, { open: () => true, drainTimeoutMs: 1_000, clock });
    const first = outcome(send(big));
    const second = outcome(send({ method: 'second' }));
    await settle();
    expect([first.value(), second.value()]).toEqual(['pending', 'pending']);
    expect(written.map((w) => JSON.parse(w) as { method: string }).map((f) => f.method)).toEqual([
      'x',
    ]);
    flush();
    await settle();
    flush();
    await settle();
    expect(first.value()).toBe('accepted');
    expect(second.value()).toBe('accepted');
    expect(written.map((w) => (JSON.parse(w) as { method: string }).method)).toEqual([
      'x',
      'second',
    ]);
  });

  it('a pipe that does not drain by the deadline fails the waiting frame and those behind it', async () => {
    const { pipe } = heldPipe();
    const { clock, fireAll, pending } = manualClock();
    const send = createStdinWriter(pipe, { open: () => true, drainTimeoutMs: 1_000, clock });
    const first = outcome(send(big));
    const second = outcome(send({ method: 'second' }));
    await settle();
    expect(pending()).toBe(1);
    fireAll();
    await settle();
    expect([first.value(), second.value()]).toEqual(['write_timeout', 'write_timeout']);
  });

  it('a pipe that closes while a frame waits rejects it write_interrupted', async () => {
    const { pipe } = heldPipe();
    const { clock, pending } = manualClock();
    const send = createStdinWriter(pipe, { open: () => true, drainTimeoutMs: 1_000, clock });
    const first = outcome(send(big));
    await settle();
    pipe.destroy();
    await settle();
    expect(first.value()).toBe('write_interrupted');
    expect(pending()).toBe(0); // the deadline was cleared
    const after = outcome(send({ method: 'after' }));
    await settle();
    expect(after.value()).toBe('write_refused');
  });

  it('a frame that fits resolves without waiting and sets no deadline', async () => {
    const { pipe, written } = heldPipe();
    const { clock, pending } = manualClock();
    const send = createStdinWriter(pipe, { open: () => true, drainTimeoutMs: 1_000, clock });
    const small = outcome(send({ m: 1 }));
    await settle();
    expect(small.value()).toBe('accepted');
    expect(written).toEqual(['{"m":1}\n']);
    expect(pending()).toBe(0);
  });
});

describe('stdio transport with a child that does not read', () => {
  let transport: CodexStdioTransport | undefined;
  afterEach(async () => {
    await transport?.close();
    transport = undefined;
  });

  it('send resolves only after the child starts reading, and every byte arrives', async () => {
    transport = createCodexStdioTransport({
      executable: process.execPath,
      extraArgs: [join(STAND_INS, 'slow-reader.cjs')],
      cwd: process.cwd(),
      env: testEnv(),
      closeGraceMs: 200,
      killGraceMs: 200,
    });
    const frames = readFrames(transport);
    const hello = (await frames.next()).value as { hello: { pid: number } };
    // far more than the pipe's kernel buffer and the stream's highWaterMark together
    const text = 'z'.repeat(4 * 1024 * 1024);
    const sent = outcome(transport.send({ text }));
    for (let i = 0; i < 5; i += 1) await settle();
    expect(sent.value()).toBe('pending');
    process.kill(hello.hello.pid, 'SIGUSR2');
    const read = (await frames.next()).value as { read: number };
    expect(read.read).toBe(JSON.stringify({ text }).length);
    await settle();
    expect(sent.value()).toBe('accepted');
  });
});
