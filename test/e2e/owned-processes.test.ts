/**
 * No process outlives dispose() (ADR-0006), on the real binary. Codex runs each command (and its
 * start-up shell snapshot) in a session of its own, outside the app-server's process group; each
 * case below left a process running while dispose() reported success before the owner marker.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execCommandStep, textStep } from '../../src/testing/index.js';
import { OWNER_ENV_VAR } from '../../src/transport/owner-marker.js';
import {
  processesWithCmdline,
  processesWithEnv,
  waitForProcesses,
  type LiveProcess,
} from '../support/proc-scan.js';
import { textInput } from '../support/provider-harness.js';
import {
  openRealCodex,
  recordingSink,
  type RealCodex,
  waitForApproval,
  approveOnce,
} from '../support/real-codex.js';

/** A sleep duration no other process on the machine has in its command line. */
function uniqueSleep(): string {
  return `300.${String(process.pid)}${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
}

function appServerOf(codex: RealCodex): LiveProcess {
  // the transport spawned it, so its parent is this test process
  const leaders = processesWithEnv(`CODEX_HOME=${codex.iso.codexHome}`).filter(
    (p) => p.ppid === process.pid && p.cmdline.includes('app-server'),
  );
  expect(leaders).toHaveLength(1);
  return leaders[0]!;
}

/** The owner marker entry, read from the app-server's own environment. */
function ownerEntryOf(leader: LiveProcess): string {
  const entry = leader.environ.find((e) => e.startsWith(`${OWNER_ENV_VAR}=`));
  expect(entry).toBeDefined();
  return entry!;
}

/** Starts a run whose model asks for `cmd`, approves it, and returns the run. */
async function runApproved(codex: RealCodex, cmd: string) {
  codex.server.enqueue(
    execCommandStep(cmd, { escalate: true, justification: 'test' }),
    textStep('after'),
  );
  const sink = recordingSink();
  const run = await codex.session.startRun({ input: textInput('go'), sink, runRef: 'cmd' });
  const requested = await waitForApproval(sink, 'the approval');
  await approveOnce(codex, requested.providerRef);
  return run;
}

function expectNothingLeft(owner: string, needle: string): void {
  expect(processesWithCmdline(needle).map((p) => p.cmdline)).toEqual([]);
  expect(processesWithEnv(owner).map((p) => p.cmdline)).toEqual([]);
}

describe('no process outlives dispose() (real binary)', () => {
  it('leader SIGKILLed mid-command: the orphaned command (reparented to PID 1) is swept', async () => {
    const codex = await openRealCodex({ approvals: 'bridge' });
    const owner = ownerEntryOf(appServerOf(codex));
    const d = uniqueSleep();
    const run = await runApproved(codex, `sleep ${d}; echo done`);
    // the sleep itself: under load a scan also caught a process carrying the command line in its
    // argv while still in the app-server's group (before the command's setsid), failing this check
    const [cmd] = await waitForProcesses(
      () => processesWithCmdline(`sleep ${d}`).filter((p) => p.cmdline.startsWith('sleep ')),
      'the command',
    );
    // the command runs in a session of its own, outside the app-server's group
    expect(cmd!.pgid).not.toBe(appServerOf(codex).pgid);
    process.kill(appServerOf(codex).pid, 'SIGKILL');
    expect((await run.completion).outcome).toBe('failed');
    await codex.session.dispose();
    expectNothingLeft(owner, `sleep ${d}`);
  }, 60_000);

  it('wedged (SIGSTOPped) leader SIGKILLed by dispose: the running command is swept too', async () => {
    const codex = await openRealCodex({ approvals: 'bridge' });
    const leader = appServerOf(codex);
    const owner = ownerEntryOf(leader);
    const d = uniqueSleep();
    const run = await runApproved(codex, `sleep ${d}; echo done`);
    await waitForProcesses(() => processesWithCmdline(`sleep ${d}`), 'the command');
    process.kill(leader.pid, 'SIGSTOP');
    await codex.session.dispose();
    expect((await run.completion).outcome).toBe('interrupted');
    expectNothingLeft(owner, `sleep ${d}`);
  }, 60_000);

  it("a child started by ~/.bashrc (the shell snapshot's login shell) is swept by a graceful dispose", async () => {
    const d = uniqueSleep();
    // the shell snapshot is what runs ~/.bashrc; it is off unless commands inherit (ADR-0013)
    const codex = await openRealCodex(
      { commandEnvironment: 'inherit' },
      {
        prepareHome: (home) => {
          writeFileSync(join(home, '.bashrc'), `( sleep ${d} & )\n`);
        },
      },
    );
    const owner = ownerEntryOf(appServerOf(codex));
    const [child] = await waitForProcesses(
      () => processesWithCmdline(`sleep ${d}`),
      'the .bashrc child',
    );
    expect(child!.environ).toContain(owner);
    await codex.session.dispose();
    expectNothingLeft(owner, `sleep ${d}`);
  }, 60_000);

  it('a setsid daemon started by a command is swept after the turn completed', async () => {
    const codex = await openRealCodex({ approvals: 'bridge' });
    const owner = ownerEntryOf(appServerOf(codex));
    const d = uniqueSleep();
    // the command waits until the daemon has left its session (setsid() done, then exec): codex
    // may kill the command's own group when it ends, which would otherwise race the escape
    const run = await runApproved(
      codex,
      `setsid sh -c 'echo up > .daemon-ready; exec sleep ${d}' >/dev/null 2>&1 </dev/null & ` +
        `for i in $(seq 1 400); do [ -s .daemon-ready ] && break; sleep 0.05; done; echo started`,
    );
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    const [daemon] = await waitForProcesses(() => processesWithCmdline(`sleep ${d}`), 'the daemon');
    // it left the tree: its own session, adopted by PID 1 (or a subreaper)
    expect(daemon!.sid).toBe(daemon!.pid);
    await codex.session.dispose();
    expectNothingLeft(owner, `sleep ${d}`);
  }, 60_000);
});
