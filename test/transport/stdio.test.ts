import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLinuxProcProbe, type ProcProbe } from '../../src/transport/proc-probe.js';
import {
  createCodexStdioTransport,
  spawnCodexStdioTransport,
  type CodexStdioTransport,
} from '../../src/transport/stdio.js';
import { CodexTransportError } from '../../src/transport/types.js';
import { readFrames } from '../support/frame-reader.js';
import { testEnv } from '../support/processes.js';
import {
  drain,
  groupMembers,
  isAlive,
  isReaped,
  nextMatching,
  standIn,
  waitUntil,
  within,
} from '../support/stand-ins.js';

const open: CodexStdioTransport[] = [];
const cleanupPids: number[] = [];

afterEach(async () => {
  for (const t of open.splice(0)) await t.close().catch(() => undefined);
  for (const pid of cleanupPids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

async function expectRefused(sent: Promise<void>): Promise<void> {
  const err: unknown = await sent.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CodexTransportError);
  expect((err as CodexTransportError).code).toBe('write_refused');
}

function start(
  script: string,
  extra: { cwd?: string; env?: Record<string, string>; args?: string[] } = {},
) {
  const drops: string[] = [];
  const t = createCodexStdioTransport({
    cwd: extra.cwd ?? process.cwd(),
    executable: process.execPath,
    extraArgs: [standIn(script), ...(extra.args ?? [])],
    env: testEnv(extra.env ?? {}),
    closeGraceMs: 200,
    killGraceMs: 200,
    onDrop: (r) => drops.push(r),
  });
  open.push(t);
  return { t, it: readFrames(t), drops };
}

type Hello = { pid: number; cwd: string; argv: string[]; grandchild: number };
const hello = async (it: AsyncIterator<unknown>) =>
  (await nextMatching(it, 'hello', (f) => 'hello' in f)).hello as Hello;

describe('stdio transport with real child processes', () => {
  it('reassembles a frame split across writes (inside multi-byte characters)', async () => {
    const { t, it } = start('lines.cjs');
    await hello(it);
    await t.send({ cmd: 'split' });
    const frame = await nextMatching(it, 'split frame', (f) => 'split' in f);
    expect(frame.split).toBe('é\u2028😀 end');
    await t.close();
  });

  it('drops malformed lines, ignores blanks and stderr, keeps decoding', async () => {
    const { t, it, drops } = start('lines.cjs');
    await hello(it);
    await t.send({ cmd: 'noise' });
    const frame = await nextMatching(it, 'frame after noise', () => true);
    expect(frame).toEqual({ after: 'noise' });
    expect(drops).toEqual(['malformed', 'malformed']);
    await t.close();
  });

  it('send() refuses unserialisable input and a closed pipe with a typed write_refused', async () => {
    const { t, it } = start('lines.cjs');
    await hello(it);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const bad of [cyclic, 10n, undefined]) await expectRefused(t.send(bad));
    await t.send({ cmd: 'echo', value: 'still works' });
    expect((await nextMatching(it, 'echo', (f) => 'echo' in f)).echo).toBe('still works');
    await t.close();
    await expectRefused(t.send({ cmd: 'echo', value: 1 }));
    expect(await drain(it, 'end after close')).toEqual([]);
  });

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

  it('passes a workspace path and argument with shell metacharacters through unchanged', async () => {
    const root = mkdtempSync(join(tmpdir(), 'transport-ws-'));
    const weird = `$(touch x); 'a b' "c" ;|&`;
    const cwd = join(root, weird);
    mkdirSync(cwd);
    try {
      const { t, it } = start('lines.cjs', { cwd, args: [weird] });
      const h = await hello(it);
      expect(h.cwd).toBe(cwd);
      expect(h.argv).toEqual([weird, 'app-server', '--stdio']);
      await t.close();
      expect(readdirSync(cwd)).toEqual([]);
      expect(existsSync(join(root, 'x'))).toBe(false);
      expect(existsSync(join(process.cwd(), 'x'))).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a missing binary gives a typed spawn_failed and close() still resolves', async () => {
    const t = createCodexStdioTransport({
      cwd: process.cwd(),
      executable: join(tmpdir(), 'definitely-missing-codex-binary'),
      env: testEnv(),
    });
    const it = readFrames(t);
    const err: unknown = await within(
      5_000,
      'rejection',
      it.next().then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    expect(err).toBeInstanceOf(CodexTransportError);
    expect((err as CodexTransportError).code).toBe('spawn_failed');
    expect((err as CodexTransportError).detail).toEqual({ cause: 'ENOENT' });
    expect((err as CodexTransportError).message).not.toContain('definitely-missing');
    await expectRefused(t.send({ x: 1 }));
    await within(5_000, 'close()', t.close());
  });

  it('reports resource usage of the leader', async () => {
    const { t, it } = start('lines.cjs');
    await hello(it);
    const usage = await t.resourceUsage();
    expect(usage.processes).toBe(1);
    expect(usage.rssBytes).toBeGreaterThan(1024 * 1024);
    await t.close();
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

describe('stdio transport when the spawn cannot get file descriptors', () => {
  it('EMFILE gives a typed spawn_failed transport instead of a throw and an unhandled error', async () => {
    // Node reports EMFILE/ENFILE from spawn with no stdio streams and an 'error' on the next
    // tick; exhaust this worker's descriptors just for the synchronous spawn call.
    const fds: number[] = [];
    let transport: CodexStdioTransport | undefined;
    let thrown: unknown;
    try {
      try {
        for (;;) fds.push(openSync('/dev/null', 'r'));
      } catch {
        // the descriptor table is full
      }
      transport = createCodexStdioTransport({
        cwd: process.cwd(),
        executable: process.execPath,
        extraArgs: [standIn('lines.cjs')],
        env: testEnv(),
      });
    } catch (err) {
      thrown = err;
    } finally {
      for (const fd of fds) closeSync(fd);
    }
    expect(fds.length).toBeGreaterThan(0);
    expect(thrown).toBeUndefined();
    if (transport === undefined) return;
    const err: unknown = await within(
      5_000,
      'rejection',
      readFrames(transport)
        .next()
        .then(
          () => undefined,
          (e: unknown) => e,
        ),
    );
    expect(err).toBeInstanceOf(CodexTransportError);
    expect((err as CodexTransportError).code).toBe('spawn_failed');
    await expectRefused(transport.send({ x: 1 }));
    await within(5_000, 'close()', transport.close());
    // the deferred 'error' event has been emitted by now; an unhandled one would fail the run
    await new Promise((resolve) => setImmediate(resolve));
  });
});
