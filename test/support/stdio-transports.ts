/**
 * Stdio transports on stand-in children for the transport tests: each file calls
 * `useStdioTransports()` at its top level; what a test starts is closed after it.
 */
import { afterEach, expect } from 'vitest';
import { createCodexStdioTransport, type CodexStdioTransport } from '../../src/transport/stdio.js';
import { CodexTransportError } from '../../src/transport/types.js';
import { readFrames } from './frame-reader.js';
import { testEnv } from './processes.js';
import { nextMatching, standIn } from './stand-ins.js';

/** Call at a file's top level: after each test, `open` transports close, `cleanupPids` are killed. */
export function useStdioTransports() {
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

  return { open, cleanupPids, start };
}

export async function expectRefused(sent: Promise<void>): Promise<void> {
  const err: unknown = await sent.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CodexTransportError);
  expect((err as CodexTransportError).code).toBe('write_refused');
}

export type Hello = { pid: number; cwd: string; argv: string[]; grandchild: number };
export const hello = async (it: AsyncIterator<unknown>) =>
  (await nextMatching(it, 'hello', (f) => 'hello' in f)).hello as Hello;
