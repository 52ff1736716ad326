import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteEventStore } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { scriptArgv } from './script-bundle.js';
import { expectGapless, history, onCleanup, sqliteRuntime, tempDir, types } from './support.js';

const CHILD = fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url));

/** The suite's leak check follows this marker into every process a test starts. */
function childEnv(): NodeJS.ProcessEnv {
  const marker = process.env.RELVO_TEST_RUN_ID;
  return marker === undefined ? process.env : { ...process.env, RELVO_TEST_CHILD_MARKER: marker };
}

describe('durability across a process restart', () => {
  it('a child killed with SIGKILL mid-run: its lease holds while it lives, readers are not blocked; once it is gone a new runtime takes over at once (no wait for expiry), replays gaplessly and marks the session failed', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.db');
    const child = spawn(process.execPath, [...scriptArgv(CHILD), path, dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: childEnv(),
    });
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => {
      child.once('exit', (code, signal) => {
        resolve(signal ?? code);
      });
    });
    onCleanup(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let sessionId = '';
    let runId = '';
    let lastDurable = 0;
    let buffered = '';
    const enough = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`child made no progress in time: ${stderr.slice(0, 2000)}`));
      }, 60_000);
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          const [kind, a, b] = line.split(' ');
          if (kind === 'SESSION') [sessionId, runId] = [a ?? '', b ?? ''];
          if (kind === 'DURABLE') lastDurable = Number(a);
        }
        // well into the run: hundreds of deltas are durable and more are being written
        if (sessionId !== '' && lastDurable > 500) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`child exited early: ${stderr.slice(0, 2000)}`));
      });
    });
    await enough;
    // while the child is alive another process's store opens the file and reads it, but the
    // child's session is the child's: its lease holds
    const other = openSqliteEventStore({ path, busyTimeoutMs: 2_000 });
    onCleanup(() => other.close());
    expect((await other.read(sessionId, { fromSequence: 1, limit: 5 })).length).toBe(5);
    expect(await other.takeOver?.(sessionId)).toBe(false);
    await other.close();
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const { runtime } = await sqliteRuntime(path);
    expect(runtime.recoveredSessionIds).toEqual([sessionId]);
    const events = await history(runtime, sessionId);
    expectGapless(events);
    // everything the child saw as durable survived the kill
    expect(events.length).toBeGreaterThan(lastDurable);
    const kinds = types(events);
    expect(kinds.slice(0, 6)).toEqual([
      'session.opened',
      'session.state_changed',
      'turn.started',
      'turn.state_changed',
      'run.started',
      'run.state_changed',
    ]);
    // recovery appended, in order: the question cancelled, the run and turn failed, the session failed
    expect(kinds.slice(-5)).toEqual([
      'interaction.settled',
      'run.finished',
      'turn.settled',
      'session.state_changed',
      'session.closed',
    ]);
    expect(events.at(-5)?.payload).toMatchObject({ settlement: { outcome: 'cancelled' } });
    expect(events.at(-4)).toMatchObject({ runId, payload: { termination: { outcome: 'failed' } } });
    expect(events.at(-2)?.payload).toMatchObject({ from: 'ready', to: 'failed' });
    expect(events.at(-1)?.payload).toMatchObject({ type: 'session.closed', reason: 'failed' });
    expect((await runtime.listSessions()).find((s) => s.sessionId === sessionId)?.state).toBe(
      'failed',
    );
    // the deltas that made it are contiguous: no hole in the middle of the run
    const deltas = events.flatMap((e) =>
      e.payload.type === 'run.message_delta' ? [e.payload.text] : [],
    );
    expect(deltas).toEqual(deltas.map((_, i) => `d${i}`));
  });
});
