/** The session driver against a real runtime whose event store starts failing mid-turn. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  createMemoryEventStore,
  type EventStore,
} from '@relvo-labs/agent-runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionDriver, type TurnEnd } from '../src/turn/driver.js';
import { createOutput } from '../src/ui/output.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function recordingOutput(warnings: string[]) {
  const out = createOutput({ json: false, color: false, env: {} });
  return {
    ...out,
    warn: (line: string) => warnings.push(line),
    note: () => undefined,
    text: () => undefined,
  };
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
    const runtime = await createAgentRuntime({
      providers: { scripted: () => scripted.provider },
      config: { defaultProfile: 's', profiles: { s: { provider: 'scripted' } } },
      store,
    });
    cleanups.push(() => runtime.shutdown().catch(() => undefined));
    const workspace = mkdtempSync(join(tmpdir(), 'relvo-cli-driver-'));
    cleanups.push(() => {
      rmSync(workspace, { recursive: true, force: true });
    });
    const session = await runtime.openSession({ workspace });
    const warnings: string[] = [];
    const driver = new SessionDriver({
      session,
      out: recordingOutput(warnings),
      answerer: () => Promise.reject(new Error('no question expected')),
    });
    const ending = driver.turn('hi');
    for (let i = 0; session.activeRunId === undefined; i += 1) {
      if (i > 1000) throw new Error('the turn never started');
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
