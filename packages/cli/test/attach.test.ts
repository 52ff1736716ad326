/**
 * `relvo-codex attach <session>` against a session this test's own runtime owns on a SQLite
 * log (the scripted provider): the CLI in a real terminal (tmux) follows it, shows the pending
 * approval whole and answers it through the owner; without a terminal it only follows; Ctrl-C
 * detaches and leaves the session running, owned where it was.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedProvider, type ScriptStepInput } from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  openSqliteEventStore,
  type AgentRuntime,
  type RuntimeSession,
} from '@relvo-labs/agent-runtime';
import {
  cliArgv,
  cliEnv,
  REPO_ROOT,
  runCli,
  startCli,
  survivorsAfter,
  until,
} from './support/cli.js';
import { openTerminal, tmuxAvailable } from './support/tmux.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Longer than any line: the prompt must show all of it, wrapped, never cut. */
const COMMAND = `printf '%s\\n' ${Array.from({ length: 40 }, (_, i) => `word${String(i)}`).join(' ')} > out.txt # END-OF-COMMAND`;

const SCRIPT: ScriptStepInput[] = [
  { type: 'delta', text: 'before the command ' },
  {
    type: 'ask',
    ref: 'approve-1',
    request: {
      kind: 'approval',
      subject: {
        category: 'command',
        summary: 'run a shell command',
        detail: { command: COMMAND },
      },
      allowedModes: ['once', 'session'],
    },
  },
  { type: 'delta', text: 'after-the-answer' },
  { type: 'succeed' },
];

interface Owner {
  readonly runtime: AgentRuntime;
  readonly session: RuntimeSession;
  readonly log: string;
}

/** A runtime owning one session on a fresh SQLite log, its turn waiting at the approval. */
async function ownerAtApproval(): Promise<Owner & { done: Promise<unknown> }> {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-cli-attach-'));
  cleanups.push(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const log = join(dir, 'events.sqlite');
  const scripted = createScriptedProvider({ scripts: { go: SCRIPT } });
  const runtime = await createAgentRuntime({
    providers: { scripted: () => scripted.provider },
    config: { defaultProfile: 'scripted', profiles: { scripted: { provider: 'scripted' } } },
    store: openSqliteEventStore({ path: log }),
  });
  cleanups.push(() => runtime.shutdown());
  const pump = setInterval(() => {
    scripted.controller.drain();
  }, 5);
  cleanups.push(() => {
    clearInterval(pump);
  });
  const session = await runtime.openSession({ workspace: dir });
  const turn = await session.submitTurn({ input: 'go' });
  await until(() => session.pendingInteractions().length === 1, 'the approval pending', 10_000);
  return { runtime, session, log, done: turn.done };
}

async function events(runtime: AgentRuntime, sessionId: string): Promise<string[]> {
  return (await runtime.readEvents(sessionId)).map((e) => e.payload.type);
}

describe('relvo-codex attach', { timeout: 90_000 }, () => {
  it('an unknown session is one usage line, exit 2', async () => {
    const owner = await ownerAtApproval();
    const r = await runCli(['attach', 'ses_00000000', '--event-log', owner.log]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^relvo-codex: no session "ses_00000000" in \S+events\.sqlite; `relvo-codex sessions` lists them\n$/,
    );
    expect(r.stdout).toBe('');
  });

  it('in a terminal: follows the session, shows the approval whole, answers it through the owner; exits 0 when it ends', async () => {
    expect(tmuxAvailable()).toBe(true);
    const owner = await ownerAtApproval();
    const { env, mark } = cliEnv();
    const short = owner.session.id.slice(0, 12);
    const term = await openTerminal(
      [process.execPath, ...cliArgv(['attach', short, '--event-log', owner.log])],
      env,
      { cwd: REPO_ROOT, width: 80 },
    );
    cleanups.push(() => term.close());
    const asked = await term.waitFor((s) => s.includes('Allow it?'), 'the approval prompt', 60_000);
    // the timeline so far, then the request with every character of the command
    expect(asked).toContain('before the command');
    expect(asked).toContain('codex asks: run a shell command');
    expect(asked).toContain(`command (${String(COMMAND.length)} characters, all of it):`);
    expect(asked).toContain('END-OF-COMMAND');
    await term.sendKeys('y', 'Enter');
    await owner.done;
    const settled = (await owner.runtime.readEvents(owner.session.id)).find(
      (e) => e.payload.type === 'interaction.settled',
    );
    expect(settled?.payload).toMatchObject({
      settlement: { outcome: 'responded', response: { decision: 'approved', mode: 'once' } },
    });
    await term.waitFor((s) => s.includes('after-the-answer'), 'the rest of the turn', 30_000);
    // the owner still runs it: attach took nothing over
    expect(owner.runtime.session(owner.session.id)).toBeDefined();
    await owner.session.close();
    await term.waitFor((s) => s.includes('the session has ended'), 'the end', 30_000);
    expect(await term.exitStatus()).toBe(0);
    await term.close();
    expect(await survivorsAfter(mark)).toEqual([]);
  });

  it('without a terminal it only follows; Ctrl-C, SIGTERM and SIGHUP detach (130, 143, 129) and the session runs on', async () => {
    const owner = await ownerAtApproval();
    const before = await events(owner.runtime, owner.session.id);
    // Ctrl-C, SIGTERM and SIGHUP each detach, with their own code
    const marks: string[] = [];
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
      ['SIGHUP', 129],
    ] as const) {
      const cli = startCli(['attach', owner.session.id, '--event-log', owner.log]);
      // the banner, the replayed output and the pending request are separate writes
      await until(
        () =>
          cli.stderr().includes('attached to') &&
          cli.stderr().includes('no terminal to ask in') &&
          cli.stdout().includes('before the command'),
        'attached, with what came before and the pending request',
        60_000,
      );
      process.kill(cli.pid, signal);
      const r = await cli.result;
      expect(r.code, `${signal}: ${r.stderr}`).toBe(code);
      expect(r.stderr).toContain('detached from');
      marks.push(r.mark);
    }
    // nothing was written to the session: no interrupt, no close, the approval still pending
    expect(await events(owner.runtime, owner.session.id)).toEqual(before);
    expect(owner.session.pendingInteractions()).toHaveLength(1);
    expect((await owner.runtime.sessionOwners()).get(owner.session.id)).toBe('this_runtime');
    // and it goes on: answered here, the turn finishes
    const pending = owner.session.pendingInteractions()[0];
    await owner.session.respond(pending?.interactionId ?? '', {
      kind: 'approval',
      decision: 'denied',
    });
    await owner.done;
    expect(await events(owner.runtime, owner.session.id)).toContain('run.finished');
    for (const mark of marks) expect(await survivorsAfter(mark)).toEqual([]);
  });

  it('a damaged row in the log while attached ends the follow: one line, exit 1, no wait', async () => {
    const owner = await ownerAtApproval();
    const cli = startCli(['attach', owner.session.id, '--event-log', owner.log]);
    await until(() => cli.stderr().includes('attached to'), 'attached', 60_000);
    // the session's next row, written by something that is not the store: not JSON at all
    const db = new Database(owner.log);
    try {
      db.transaction(() => {
        const last = (
          db
            .prepare('SELECT last_sequence AS n FROM sessions WHERE session_id = ?')
            .get(owner.session.id) as { n: number }
        ).n;
        db.prepare(
          'INSERT INTO event_rows (session_id, first_sequence, last_sequence, envelopes) VALUES (?, ?, ?, ?)',
        ).run(owner.session.id, last + 1, last + 1, 'damaged');
        db.prepare('UPDATE sessions SET last_sequence = ? WHERE session_id = ?').run(
          last + 1,
          owner.session.id,
        );
      })();
    } finally {
      db.close();
    }
    const broken = await cli.result;
    // taken out again, so the owner that shares the file shuts down cleanly
    const fix = new Database(owner.log);
    fix.prepare('DELETE FROM event_rows WHERE envelopes = ?').run('damaged');
    fix.close();
    expect(broken.code, broken.stderr).toBe(1);
    expect(broken.stderr).toContain("the session's event stream ended");
    expect(await survivorsAfter(broken.mark)).toEqual([]);
  });
});
