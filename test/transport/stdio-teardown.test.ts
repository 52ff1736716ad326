/** Tearing a stdio child down: escalation, memoised close, descendants and unverifiable sweeps. */
import { describe, expect, it } from 'vitest';
import { createLinuxProcProbe, type ProcProbe } from '../../src/transport/proc-probe.js';
import { spawnCodexStdioTransport } from '../../src/transport/stdio.js';
import { CodexTransportError } from '../../src/transport/types.js';
import { readFrames } from '../support/frame-reader.js';
import { testEnv } from '../support/processes.js';
import {
  drain,
  groupMembers,
  isAlive,
  isReaped,
  standIn,
  waitUntil,
  within,
} from '../support/stand-ins.js';
import { hello, useStdioTransports } from '../support/stdio-transports.js';

const { open, cleanupPids, start } = useStdioTransports();

describe('stdio transport teardown', () => {
  it('escalates to SIGKILL for a child that ignores stdin EOF and SIGTERM', async () => {
    const { t, it } = start('stubborn.cjs');
    const { pid } = await hello(it);
    cleanupPids.push(pid);
    const began = Date.now();
    await within(5_000, 'close()', t.close());
    // closeGraceMs + killGraceMs had to pass before SIGKILL
    expect(Date.now() - began).toBeGreaterThanOrEqual(390);
    expect(isAlive(pid)).toBe(false);
    expect(groupMembers(pid)).toEqual([]);
    await t.close(); // idempotent
  });

  it('close() is memoised while in flight', async () => {
    const { t, it } = start('stubborn.cjs');
    const { pid } = await hello(it);
    cleanupPids.push(pid);
    const a = t.close();
    const b = t.close();
    expect(a).toBe(b);
    await within(5_000, 'close()', a);
  });

  it('removes a descendant that survives a clean leader exit', async () => {
    const { t, it } = start('descendant.cjs');
    const { pid, grandchild } = await hello(it);
    cleanupPids.push(grandchild);
    await t.send({ cmd: 'exit' });
    await drain(it, 'stream end after leader exit');
    await waitUntil(5_000, 'leader exit', () => !isAlive(pid));
    expect(isAlive(grandchild)).toBe(true);
    await within(5_000, 'close()', t.close());
    expect(isAlive(grandchild)).toBe(false);
    expect(groupMembers(pid)).toEqual([]);
  });

  it('ends the stream within exitDrainMs when a descendant holds stdout, then removes it', async () => {
    const { t, it } = start('descendant.cjs', { env: { STANDIN_GRANDCHILD_STDOUT: 'inherit' } });
    const { pid, grandchild } = await hello(it);
    cleanupPids.push(grandchild);
    await t.send({ cmd: 'exit' });
    const rest = await drain(it, 'stream end while a descendant holds stdout', 5_000);
    expect(rest).toEqual([{ bye: true }]); // the queued final frame is not truncated
    expect(isAlive(pid)).toBe(false);
    expect(isAlive(grandchild)).toBe(true); // the pipe did not end by itself
    // the grandchild ignores SIGTERM, so the sweep must escalate to SIGKILL
    await within(5_000, 'close()', t.close());
    expect(isAlive(grandchild)).toBe(false);
    expect(groupMembers(pid)).toEqual([]);
  });

  it('ends the stream when stdout closes while the process lives', async () => {
    const { t, it } = start('lines.cjs');
    const { pid } = await hello(it);
    await t.send({ cmd: 'close-stdout' });
    await drain(it, 'stream end on stdout close');
    expect(isAlive(pid)).toBe(true);
    await within(5_000, 'close()', t.close());
    expect(isAlive(pid)).toBe(false);
  });

  it('an unverifiable teardown leaves the transport open; a later close() succeeds', async () => {
    const real = createLinuxProcProbe();
    let listingReadable = true;
    const probe: ProcProbe = {
      canAttribute: () => real.canAttribute(),
      listPids: () => (listingReadable ? real.listPids() : { kind: 'unknown', reason: 'scripted' }),
      statOf: (pid) => real.statOf(pid),
      markerOf: (pid, entry) => real.markerOf(pid, entry),
      kill: (target, signal) => {
        real.kill(target, signal);
      },
    };
    const t = spawnCodexStdioTransport(
      {
        cwd: process.cwd(),
        executable: process.execPath,
        extraArgs: [standIn('descendant.cjs')],
        env: testEnv(),
        closeGraceMs: 200,
        killGraceMs: 200,
      },
      { probe },
    );
    open.push(t);
    const it = readFrames(t);
    const { pid, grandchild } = await hello(it);
    cleanupPids.push(grandchild);
    await t.send({ cmd: 'exit' });
    await drain(it, 'stream end');
    // reaped means our exit handler (and its reap-time scan) has run
    await waitUntil(5_000, 'leader reaped', () => isReaped(pid));
    listingReadable = false;
    const err: unknown = await t.close().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CodexTransportError);
    expect((err as CodexTransportError).code).toBe('group_cleanup_unverified');
    expect((err as CodexTransportError).detail).toEqual({ doubt: 'post_exit_probe_unreadable' });
    // the member recorded at the reap instant was still removed
    expect(isAlive(grandchild)).toBe(false);
    listingReadable = true;
    await within(5_000, 'second close()', t.close());
  });
});
