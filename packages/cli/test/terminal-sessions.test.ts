/** `relvo-codex sessions` in 80- and 120-column terminals (tmux): the table never wraps. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import { createAgentRuntime, openSqliteEventStore } from '@relvo-labs/agent-runtime';
import { cliArgv, cliEnv, REPO_ROOT } from './support/cli.js';
import { openTerminal } from './support/tmux.js';
import { sessionTable, shortIds } from '../src/ui/session-table.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const LONG_PROFILE = 'codex-workspace-write-with-approvals';

/** An event log with a session left open after a turn (long profile name) and a closed one. */
async function eventLogWithSessions(): Promise<{ path: string; ids: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-cli-sessions-'));
  cleanups.push(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const path = join(dir, 'events.sqlite');
  const scripted = createScriptedProvider();
  const store = openSqliteEventStore({ path });
  const runtime = await createAgentRuntime({
    providers: { scripted: () => scripted.provider },
    config: {
      defaultProfile: LONG_PROFILE,
      profiles: { [LONG_PROFILE]: { provider: 'scripted' } },
    },
    store,
  });
  // after the store is closed (below), so the open session stays open in the log
  cleanups.push(() => runtime.shutdown().catch(() => undefined));
  const pump = setInterval(() => {
    scripted.controller.drain();
  }, 2);
  try {
    const open = await runtime.openSession({ workspace: dir });
    await (
      await open.submitTurn({ input: 'one' })
    ).done;
    const closed = await runtime.openSession({ workspace: dir });
    await closed.close();
    return { path, ids: [open.id, closed.id] };
  } finally {
    clearInterval(pump);
    // the runtime's own shutdown would close the open session: the store alone is closed
    await store.close();
  }
}

async function sessionsScreen(args: readonly string[], width: number): Promise<string[]> {
  const { env } = cliEnv();
  const term = await openTerminal([process.execPath, ...cliArgv(['sessions', ...args])], env, {
    cwd: REPO_ROOT,
    width,
  });
  cleanups.push(() => term.close());
  expect(await term.exitStatus(30_000)).toBe(0);
  // -J joins a wrapped line back into one: a line longer than the terminal wrapped
  return (await term.screen())
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('Pane is dead'));
}

describe('relvo-codex sessions: a table that fits', { timeout: 60_000 }, () => {
  it('at 80 and 120 columns: no line wraps; short unique ids, state and turns in full', async () => {
    const { path, ids } = await eventLogWithSessions();
    for (const width of [80, 120]) {
      const lines = await sessionsScreen(['--event-log', path], width);
      const table = lines.filter((l) => /^(SESSION|ses_)/.test(l));
      expect(table).toHaveLength(3);
      for (const line of table) expect(line.length).toBeLessThanOrEqual(80);
      expect(table[1]).toContain('ready, process ended');
      expect(table[1]).toMatch(/\s1\s/);
      expect(table[2]).toContain('closed');
      expect(table[1]).toContain('codex-workspa…');
      // the short id is a prefix of the real one, and `log` takes a unique prefix
      const short = table[1]?.split(' ')[0] ?? '';
      expect(ids[0]?.startsWith(short)).toBe(true);
      expect(short.length).toBeLessThan(ids[0]?.length ?? 0);
    }
  });

  it('--wide shows every column in full (it fits 160 columns)', async () => {
    const { path, ids } = await eventLogWithSessions();
    const lines = await sessionsScreen(['--event-log', path, '--wide'], 160);
    const table = lines.filter((l) => /^(SESSION|ses_)/.test(l));
    expect(table[0]).toMatch(/STARTED\s+LAST ACTIVITY\s+RESUMABLE/);
    expect(table[1]).toContain(ids[0] ?? 'missing');
    expect(table[1]).toContain(LONG_PROFILE);
    expect(table[1]).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ/);
  });
});

describe('sessionTable', () => {
  it('ids cut to 8 hex digits, longer only where two would collide', () => {
    expect(shortIds(['ses_aaaaaaaa1111', 'ses_aaaaaaaa2222', 'ses_bbbbbbbbcccc'])).toEqual([
      'ses_aaaaaaaa1',
      'ses_aaaaaaaa2',
      'ses_bbbbbbbb',
    ]);
  });

  it('every narrow row fits 80 columns, whatever the profile names', () => {
    const listing = {
      sessionId: `ses_${'f'.repeat(32)}`,
      profiles: ['a-very-long-profile-name', 'another-one'],
      state: 'ready, process ended',
      resumable: true,
      turns: 12345,
      startedAt: '2026-12-05T00:16:29.000Z',
      lastActivityAt: '2026-12-05T00:17:29.000Z',
    };
    for (const line of sessionTable([listing], false)) expect(line.length).toBeLessThanOrEqual(80);
    expect(sessionTable([listing], true)[1]).toContain('a-very-long-profile-name,another-one');
  });
});
