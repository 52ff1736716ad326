/**
 * A host that embeds the provider and then ends badly (ADR-0010, ADR-0009). Run by
 * host-exit.test.ts as `node --import tsx forgetful-host.ts <mode> [--no-pdeathsig]`; it prints one
 * JSON line `{ leader, owner, pdeathsig }` when its session is up (and, in `command` mode, once
 * the approved command runs), then:
 *   exit     process.exit(0) without dispose
 *   throw    an uncaught exception
 *   wait     waits forever (the test sends a signal)
 *   forget   drops the session and returns: the event loop must empty by itself
 *   command  an approved `sleep` is running, then process.exit(0) without dispose
 * `--bashrc=<d>` writes a `~/.bashrc` starting `sleep <d>` (in the snapshot shell's own session,
 * immune to stdin EOF and to the parent-death signal) and waits for it before reporting;
 * `--stop-leader` SIGSTOPs the app-server right before the host ends.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCodexProvider, type CodexProviderSession } from '../../../src/index.js';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  execCommandStep,
  requireCodexBinary,
  ScriptedModelServer,
  textStep,
} from '../../../src/testing/index.js';
import { OWNER_ENV_VAR } from '../../../src/transport/owner-marker.js';
import { liveProcesses, processesWithCmdline } from '../../support/proc-scan.js';
import { acceptUnderReview } from '../../support/releases.js';

const mode = process.argv[2] ?? 'exit';
const pdeathsig = !process.argv.includes('--no-pdeathsig');
const sleepArg = process.argv.find((a) => a.startsWith('--sleep='))?.slice('--sleep='.length);

const bashrcSleep = process.argv.find((a) => a.startsWith('--bashrc='))?.slice('--bashrc='.length);

const iso = createIsolatedCodexHome('relvo-host-');
if (bashrcSleep !== undefined)
  writeFileSync(join(iso.home, '.bashrc'), `( sleep ${bashrcSleep} & )\n`);
const server = mode === 'command' ? await ScriptedModelServer.start() : undefined;
const binary = requireCodexBinary({ kind: 'native' });
const provider = createCodexProvider({
  executable: binary.path,
  additionalAppServerVersions: acceptUnderReview(binary.version),
  extraArgs: codexConfigArgs({ baseUrl: server?.baseUrl ?? 'http://127.0.0.1:9/v1' }),
  env: iso.env(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined))),
  approvals: mode === 'command' ? 'bridge' : 'none',
  ...(pdeathsig ? {} : { parentDeathSignal: false }),
  // the `.bashrc` child is started by codex's shell snapshot, which the default filtered
  // command environment turns off (ADR-0013): opt back into codex's default
  ...(bashrcSleep !== undefined ? { commandEnvironment: 'inherit' as const } : {}),
});
const session: CodexProviderSession = await provider.createSession({
  options: {},
  workspace: { root: iso.workspace, ownership: 'borrowed' },
  sink: { emit: () => undefined },
});

function report(): void {
  const leader = liveProcesses().find(
    (p) => p.ppid === process.pid && p.cmdline.includes('app-server'),
  );
  const owner = leader?.environ.find((e) => e.startsWith(`${OWNER_ENV_VAR}=`));
  process.stdout.write(`${JSON.stringify({ leader: leader?.pid, owner, pdeathsig })}\n`);
}

if (mode === 'command' && server !== undefined && sleepArg !== undefined) {
  server.enqueue(
    execCommandStep(`sleep ${sleepArg}; echo done`, { escalate: true }),
    textStep('x'),
  );
  let asked: string | undefined;
  await session.startRun({
    input: { parts: [{ type: 'text', text: 'go' }] },
    runRef: 'host-run',
    sink: {
      emit: (e) => {
        if (e.payload.type === 'interaction.requested') asked = e.payload.providerRef;
      },
    },
  });
  while (asked === undefined) await new Promise((r) => setTimeout(r, 20));
  await session.respondToInteraction(asked, {
    kind: 'approval',
    decision: 'approved',
    mode: 'once',
  });
  while (processesWithCmdline(`sleep ${sleepArg}`).length === 0) {
    await new Promise((r) => setTimeout(r, 20));
  }
}

while (bashrcSleep !== undefined && processesWithCmdline(`sleep ${bashrcSleep}`).length === 0) {
  await new Promise((r) => setTimeout(r, 20));
}
report();
if (process.argv.includes('--stop-leader')) {
  const leader = liveProcesses().find(
    (p) => p.ppid === process.pid && p.cmdline.includes('app-server'),
  );
  if (leader !== undefined) process.kill(leader.pid, 'SIGSTOP');
}
switch (mode) {
  case 'exit':
  case 'command':
    process.exit(0);
    break;
  case 'throw':
    setTimeout(() => {
      throw new Error('host bug');
    }, 10);
    break;
  case 'wait':
    setInterval(() => undefined, 60_000);
    break;
  case 'forget':
    break; // nothing else keeps the loop alive: the idle session must not either
}
