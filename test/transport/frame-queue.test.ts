/** FrameQueue's batch consumer (`nextBatch`), the one the JSON-RPC client drains our transports with. */
import { describe, expect, it } from 'vitest';
import { FrameQueue } from '../../src/transport/frame-queue.js';

describe('FrameQueue.nextBatch', () => {
  it('hands over a synchronous burst of pushes at once, in order', async () => {
    const q = new FrameQueue();
    const waiting = q.nextBatch();
    q.push(1);
    q.push(2);
    q.push(3);
    expect(await waiting).toEqual([1, 2, 3]);
    q.push(4);
    expect(await q.nextBatch()).toEqual([4]);
  });

  it('delivers frames queued before the end first, then undefined', async () => {
    const q = new FrameQueue();
    q.push('a');
    q.end();
    q.push('ignored after the end');
    expect(await q.nextBatch()).toEqual(['a']);
    expect(await q.nextBatch()).toBeUndefined();
    expect(await q.nextBatch()).toBeUndefined();
  });

  it('reports a failure once, after the frames queued before it; a waiting consumer wakes for it', async () => {
    const q = new FrameQueue();
    q.push('a');
    q.fail(new Error('boom'));
    expect(await q.nextBatch()).toEqual(['a']);
    await expect(q.nextBatch()).rejects.toThrow('boom');
    expect(await q.nextBatch()).toBeUndefined();

    const r = new FrameQueue();
    const waiting = r.nextBatch();
    r.fail(new Error('late'));
    await expect(waiting).rejects.toThrow('late');
  });

  it('refuses a second concurrent consumer', async () => {
    const q = new FrameQueue();
    const first = q.nextBatch();
    await expect(q.nextBatch()).rejects.toThrow('concurrent');
    q.push(1);
    expect(await first).toEqual([1]);
  });
});
