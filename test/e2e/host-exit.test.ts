/**
 * No orphan when the host forgets dispose() or dies (ADR-0010): real hosts (forgetful-host.ts)
 * embed the provider with the real binary, end badly, and no codex process may survive them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { processesWithCmdline, processesWithEnv, type LiveProcess } from '../support/proc-scan.js';
import { testEnv } from '../support/processes.js';
import { scriptArgv } from '../../packages/agent-runtime/test/script-bundle.js';

const HOST = fileURLToPath(new URL('./hosts/forgetful-host.ts', import.meta.url));

interface HostReport {
  readonly leader: number;
  readonly owner: string;
  readonly pdeathsig: boolean;
}

interface RunningHost {
  readonly child: ChildProcess;
  readonly report: HostReport;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const hosts: ChildProcess[] = [];
const strays: number[] = [];
// a host that ends badly never removes its codex home: each gets a temp folder of its own (its
// TMPDIR), removed here once it is gone
const scratches: string[] = [];

afterEach(() => {
  for (const h of hosts.splice(0))
    if (h.exitCode === null && h.signalCode === null) h.kill('SIGKILL');
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  for (const dir of scratches.splice(0))
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});

async function startHost(args: readonly string[]): Promise<RunningHost> {
  const scratch = mkdtempSync(join(tmpdir(), 'relvo-host-exit-'));
  scratches.push(scratch);
  const child = spawn(process.execPath, [...scriptArgv(HOST), ...args], {
    env: { ...testEnv(), TMPDIR: scratch },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  hosts.push(child);
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
  });
  let out = '';
  const report = await new Promise<HostReport>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`host did not report within 60 s; stderr: ${stderr.slice(-2000)}`));
    }, 60_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      resolve(JSON.parse(out.slice(0, nl)) as HostReport);
    });
    void exited.then((e) => {
      clearTimeout(timer);
      reject(new Error(`host exited early (${JSON.stringify(e)}); stderr: ${stderr.slice(-2000)}`));
    });
  });
  expect(report.leader).toBeGreaterThan(1);
  expect(report.owner).toMatch(/^RELVO_CODEX_OWNER=/);
  return { child, report, exited };
}

/** Waits (bounded) until no process carries the owner marker; returns what is left. */
async function survivorsAfter(owner: string, timeoutMs = 10_000): Promise<LiveProcess[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = processesWithEnv(owner);
    if (left.length === 0 || Date.now() > deadline) {
      strays.push(...left.map((p) => p.pid));
      return left;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

const names = (ps: readonly LiveProcess[]) => ps.map((p) => p.cmdline.slice(0, 80));

/** A sleep duration no other process has in its command line. */
const uniqueSleep = () => `300.${String(process.pid)}${String(Date.now()).slice(-6)}`;

// Each host also has a `.bashrc` child (its own session: neither stdin EOF nor the parent-death
// signal reaches it) and a stopped app-server with no parent-death signal: only the exit hook
// can end them.
const HARD = (d: string) => [`--bashrc=${d}`, '--stop-leader', '--no-pdeathsig'];

describe('a host that ends without dispose() leaves no codex process (real binary)', () => {
  for (const { name, args, code } of [
    {
      name: 'process.exit(0): the exit hook kills every owned process synchronously',
      args: (d: string) => ['exit', ...HARD(d)],
      code: 0,
    },
    {
      name: 'an uncaught exception: the exit hook still runs',
      args: (d: string) => ['throw', ...HARD(d)],
      code: 1,
    },
    {
      name: 'process.exit during an approved command: the command in its own session is killed too',
      args: (d: string) => ['command', `--sleep=${d}`],
      code: 0,
    },
  ]) {
    it(
      name,
      async () => {
        const d = uniqueSleep();
        const host = await startHost(args(d));
        expect((await host.exited).code).toBe(code);
        expect(names(await survivorsAfter(host.report.owner))).toEqual([]);
        expect(processesWithCmdline(`sleep ${d}`)).toEqual([]);
      },
      90_000,
    );
  }

  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)(
    '%s with default handling: owned processes are killed and the host still dies of the signal',
    async (signal) => {
      const host = await startHost(['wait', ...HARD(uniqueSleep())]);
      host.child.kill(signal);
      expect(await host.exited).toEqual({ code: null, signal });
      expect(names(await survivorsAfter(host.report.owner))).toEqual([]);
    },
    90_000,
  );

  it('a host that drops an idle session: the session does not hold the event loop; the host exits and the exit hook cleans up', async () => {
    const d = uniqueSleep();
    const host = await startHost(['forget', `--bashrc=${d}`]);
    // bounded: a held event loop would keep this host alive until afterEach kills it
    const exit = await Promise.race([
      host.exited,
      new Promise<'still running'>((r) =>
        setTimeout(() => {
          r('still running');
        }, 30_000),
      ),
    ]);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(names(await survivorsAfter(host.report.owner))).toEqual([]);
    expect(processesWithCmdline(`sleep ${d}`)).toEqual([]);
  }, 90_000);
});

describe('a host killed outright (SIGKILL: no handler runs)', () => {
  it('takes a SIGSTOPped app-server down with it (parent-death signal)', async () => {
    const host = await startHost(['wait']);
    expect(host.report.pdeathsig).toBe(true);
    process.kill(host.report.leader, 'SIGSTOP');
    host.child.kill('SIGKILL');
    await host.exited;
    expect(names(await survivorsAfter(host.report.owner))).toEqual([]);
  }, 90_000);

  it('takes a running app-server down with it', async () => {
    const host = await startHost(['wait']);
    host.child.kill('SIGKILL');
    await host.exited;
    expect(names(await survivorsAfter(host.report.owner))).toEqual([]);
  }, 90_000);

  it('control: without the parent-death signal a SIGSTOPped app-server survives its host', async () => {
    const host = await startHost(['wait', '--no-pdeathsig']);
    expect(host.report.pdeathsig).toBe(false);
    process.kill(host.report.leader, 'SIGSTOP');
    host.child.kill('SIGKILL');
    await host.exited;
    // bounded observation: it is still there after 1 s (afterEach kills it); the parent-death
    // signal, where set, takes a stopped leader down as its host exits
    const left = await survivorsAfter(host.report.owner, 1_000);
    expect(left.map((p) => p.pid)).toContain(host.report.leader);
  }, 90_000);
});
