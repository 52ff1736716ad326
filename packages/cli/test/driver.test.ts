/**
 * The session driver on the runtime with the SPI's scripted provider: no codex, and a clock the
 * test moves by hand, so every duration the CLI computes is known exactly.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InteractionRequest } from '@relvo-labs/agent-provider';
import { createScriptedProvider, type ScriptStepInput } from '@relvo-labs/agent-provider/testing';
import { createAgentRuntime } from '@relvo-labs/agent-runtime';
import type { Answerer } from '../src/turn/answers.js';
import { SessionDriver } from '../src/turn/driver.js';
import { timingsOf } from '../src/turn/summary.js';
import { createOutput } from '../src/ui/output.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const approval: InteractionRequest = {
  kind: 'approval',
  subject: { category: 'command', summary: 'run ls' },
  allowedModes: ['once'],
  riskHint: 'low',
};

/** Collects what the CLI writes to stdout and stderr. */
function capture(): {
  out: ReturnType<typeof createOutput>;
  stdout: () => string;
  stderr: () => string;
} {
  let stdout = '';
  let stderr = '';
  const stream = (append: (s: string) => void): NodeJS.WriteStream =>
    ({
      write: (s: string) => (append(s), true),
      on: () => undefined,
      isTTY: false,
    }) as unknown as NodeJS.WriteStream;
  const out = createOutput({
    json: false,
    color: false,
    env: {},
    stdout: stream((s) => (stdout += s)),
    stderr: stream((s) => (stderr += s)),
  });
  return { out, stdout: () => stdout, stderr: () => stderr };
}

async function driverOn(script: readonly ScriptStepInput[], answerer: Answerer, now: () => number) {
  const scripted = createScriptedProvider({ defaultScript: [...script] });
  const runtime = await createAgentRuntime({
    providers: { scripted: () => scripted.provider },
    config: { defaultProfile: 'p', profiles: { p: { provider: 'scripted' } } },
  });
  const workspace = mkdtempSync(join(tmpdir(), 'relvo-cli-driver-'));
  cleanups.push(() => {
    rmSync(workspace, { recursive: true, force: true });
  });
  cleanups.push(() => runtime.shutdown().catch(() => undefined));
  // the scripted provider moves only when drained: keep draining until the test ends
  const pump = setInterval(() => {
    scripted.controller.drain();
  }, 2);
  cleanups.push(() => {
    clearInterval(pump);
  });
  const session = await runtime.openSession({ workspace });
  const io = capture();
  const driver = new SessionDriver({ session, out: io.out, answerer, now });
  cleanups.push(() => driver.close().catch(() => undefined));
  return { driver, io };
}

describe('SessionDriver', () => {
  it('the timings leave out the time a person took to answer an approval', async () => {
    let clock = 1_000;
    const answerer: Answerer = () => {
      clock += 60_000; // the person thinks for a minute, by the CLI's own clock
      return Promise.resolve({
        response: { kind: 'approval', decision: 'approved', mode: 'once' },
        how: 'prompt',
      });
    };
    const { driver } = await driverOn(
      [
        { type: 'ask', ref: 'a1', request: approval },
        { type: 'delta', text: 'done' },
        { type: 'succeed' },
      ],
      answerer,
      () => clock,
    );
    const startedAt = clock;
    const end = await driver.turn('go');
    if (end.kind !== 'finished') throw new Error('the turn did not finish');
    expect(end.termination.outcome).toBe('succeeded');
    const timings = timingsOf(end.stats, startedAt);
    expect(timings.waitingMs).toBe(60_000);
    expect(timings.totalMs).toBe(0);
    expect(timings.turnStartToFirstDeltaMs).toBe(0);
  });
  it('the whole subject is on stderr before any answer is asked for, even one from --yes', async () => {
    let before = '';
    const { driver, io } = await driverOn(
      [
        {
          type: 'ask',
          ref: 'a1',
          request: {
            ...approval,
            subject: {
              category: 'command',
              summary: 'Codex requests approval to run a command of 3000 characters',
              detail: { command: `echo ${'z'.repeat(2984)} | sh -s ok` },
            },
          },
        },
        { type: 'succeed' },
      ],
      () => {
        before = io.stderr();
        return Promise.resolve({
          response: { kind: 'approval', decision: 'denied' },
          how: 'flag',
        });
      },
      () => performance.now(),
    );
    expect((await driver.turn('go')).kind).toBe('finished');
    expect(before).toContain('  command (3000 characters, all of it):');
    expect(before).toContain(' | sh -s ok\n');
    expect((before.match(/z/g) ?? []).length).toBe(2984);
  });

  it('shows tool activity as a person reads it: `$ ls -la ✓ exit 0`', async () => {
    const noAnswer: Answerer = () => Promise.reject(new Error('nothing to ask'));
    const { driver, io } = await driverOn(
      [
        { type: 'tool', toolName: 'command', phase: 'invoked', detail: { command: 'ls -la' } },
        {
          type: 'tool',
          toolName: 'command',
          phase: 'succeeded',
          detail: { command: 'ls -la', exitCode: 0, status: 'completed' },
        },
        {
          type: 'tool',
          toolName: 'command',
          phase: 'failed',
          detail: { command: 'false', exitCode: 1, status: 'failed' },
        },
        { type: 'succeed' },
      ],
      noAnswer,
      () => performance.now(),
    );
    const end = await driver.turn('go');
    expect(end.kind).toBe('finished');
    const lines = io
      .stderr()
      .split('\n')
      .map((l) => l.trim());
    expect(lines).toContain('$ ls -la …');
    expect(lines).toContain('$ ls -la ✓ exit 0');
    expect(lines).toContain('$ false ✗ exit 1');
  });
});
