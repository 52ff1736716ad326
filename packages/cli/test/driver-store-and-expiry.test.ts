/** The session driver against a real runtime whose event store starts failing mid-turn. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentProvider } from '@relvo-labs/agent-provider';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  createMemoryEventStore,
  type EventStore,
  type RuntimeConfigInput,
  type RuntimeSession,
} from '@relvo-labs/agent-runtime';

type RuntimeProfileInput = RuntimeConfigInput['profiles'][string];
import { afterEach, describe, expect, it } from 'vitest';
import { SessionDriver, type TurnEnd } from '../src/turn/driver.js';
import { timeLeftLabel } from '../src/turn/expiry-label.js';
import { createOutput } from '../src/ui/output.js';
import { PromptAborted } from '../src/ui/prompt.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function recordingOutput(warnings: string[], notes: string[] = []) {
  const out = createOutput({ json: false, color: false, env: {} });
  return {
    ...out,
    warn: (line: string) => warnings.push(line),
    note: (line: string) => notes.push(line),
    text: () => undefined,
  };
}

/** A session of a runtime whose one profile `s` is `profile`; shut down after the test. */
async function scriptedSession(
  provider: AgentProvider,
  profile: RuntimeProfileInput,
  store?: EventStore,
): Promise<RuntimeSession> {
  const runtime = await createAgentRuntime({
    providers: { scripted: () => provider },
    config: { defaultProfile: 's', profiles: { s: profile } },
    ...(store === undefined ? {} : { store }),
  });
  cleanups.push(() => runtime.shutdown().catch(() => undefined));
  const workspace = mkdtempSync(join(tmpdir(), 'relvo-cli-driver-'));
  cleanups.push(() => {
    rmSync(workspace, { recursive: true, force: true });
  });
  return runtime.openSession({ workspace });
}

/** Bounded: the turn's run is active (its provider session opened, the run started). */
/** Until the session's run reached its provider (which is once the turn is durable). */
async function runActive(session: RuntimeSession, started = (): boolean => true): Promise<void> {
  for (let i = 0; session.activeRunId === undefined || !started(); i += 1) {
    if (i > 1000) throw new Error('the turn never started');
    await new Promise((r) => setImmediate(r));
  }
}

describe('SessionDriver', () => {
  it('a failed append ends the turn as failed with a message on stderr instead of waiting', async () => {
    const inner = createMemoryEventStore();
    let broken = false;
    const store: EventStore = {
      kind: 'breakable',
      claim: () => inner.claim(),
      append: (batch) => (broken ? Promise.reject(new Error('EIO')) : inner.append(batch)),
      read: (id, options) => inner.read(id, options),
      getSession: (id) => inner.getSession(id),
      listSessions: () => inner.listSessions(),
      close: () => inner.close(),
    };
    const scripted = createScriptedProvider();
    const session = await scriptedSession(scripted.provider, { provider: 'scripted' }, store);
    const warnings: string[] = [];
    const driver = new SessionDriver({
      session,
      out: recordingOutput(warnings),
      answerer: () => Promise.reject(new Error('no question expected')),
    });
    const ending = driver.turn('hi');
    await runActive(session);
    // the turn's start is appended in the macrotask after submitTurn staged it: break the
    // store only once it holds run.started, so that it is the run, not the submit, that fails
    for (
      let i = 0;
      !(await inner.read(session.id, { fromSequence: 1, limit: 100 })).some(
        (e) => e.payload.type === 'run.started',
      );
      i += 1
    ) {
      if (i > 1000) throw new Error('the turn start never became durable');
      await new Promise((r) => setImmediate(r));
    }
    broken = true;
    scripted.controller.drain();
    let timer: NodeJS.Timeout | undefined;
    const end = await Promise.race([
      ending,
      new Promise<'hung'>((resolve) => {
        timer = setTimeout(() => {
          resolve('hung');
        }, 5_000);
      }),
    ]);
    clearTimeout(timer);
    expect(end).not.toBe('hung');
    const finished = end as TurnEnd;
    expect(finished.kind === 'finished' && finished.termination).toMatchObject({
      outcome: 'failed',
      error: { code: 'store_unavailable' },
    });
    expect(warnings.join('\n')).toContain('event stream ended early');
    await driver.close().catch(() => undefined);
  });
});

describe('the time left to answer', () => {
  const now = Date.parse('2026-01-01T00:00:00.000Z');
  const at = (ms: number) => new Date(now + ms).toISOString();

  it('is shown in whole seconds, rounded up; nothing without a deadline', () => {
    expect(timeLeftLabel(undefined, now)).toBe('');
    expect(timeLeftLabel(at(90_000), now)).toBe('1m 30s left to answer');
    expect(timeLeftLabel(at(4_001), now)).toBe('5s left to answer');
    expect(timeLeftLabel(at(2 * 3_600_000 + 60_000), now)).toBe('2h 1m left to answer');
    expect(timeLeftLabel(at(-5_000), now)).toBe('0s left to answer');
  });

  it('the prompt line of a request that expires says how long is left', async () => {
    const scripted = createScriptedProvider({
      scripts: { hi: [{ type: 'ask', ref: 'q', request: { kind: 'question', prompt: 'which?' } }] },
    });
    const session = await scriptedSession(scripted.provider, {
      provider: 'scripted',
      interactionExpiry: { afterMs: 600_000 },
    });
    const notes: string[] = [];
    let asked!: () => void;
    const askedPromise = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const driver = new SessionDriver({
      session,
      out: recordingOutput([], notes),
      answerer: (_request, signal) => {
        asked();
        return new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            reject(new PromptAborted());
          });
        });
      },
    });
    const ending = driver.turn('hi');
    await runActive(session, () => scripted.controller.startedRuns.length === 1);
    scripted.controller.drain();
    await askedPromise;
    expect(notes.join('\n')).toMatch(/codex asks: which\? \((10m 0s|9m 59s) left to answer\)/);
    await driver.interrupt();
    await ending;
    await driver.close();
  });
});
