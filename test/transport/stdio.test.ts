import { describe, expect, it } from 'vitest';
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
import { createCodexStdioTransport, type CodexStdioTransport } from '../../src/transport/stdio.js';
import { CodexTransportError } from '../../src/transport/types.js';
import { readFrames } from '../support/frame-reader.js';
import { testEnv } from '../support/processes.js';
import { drain, nextMatching, standIn, within } from '../support/stand-ins.js';
import { expectRefused, hello, useStdioTransports } from '../support/stdio-transports.js';

const { start } = useStdioTransports();

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
