/**
 * The production transport (docs/behaviour.md §3.2–§3.6): spawns `codex app-server --stdio` as the leader of its
 * own process group and speaks JSONL over its stdio pipes.
 *
 * Portability: descendant attribution needs Linux /proc. Elsewhere (or with useProcessGroup
 * off) the group is signalled while the leader is alive, but nothing is swept after it exits and
 * nothing is claimed about descendants.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { ChunkDecoder } from '../jsonl/chunk-decoder.js';
import { callSafely } from '../shared/call-safely.js';
import { causeTokenOf as causeToken } from '../shared/cause-token.js';
import { RetryableAttempt } from '../shared/retryable-attempt.js';
import { createStdinWriter } from './stdin-writer.js';
import {
  checkStdioConfig,
  CODEX_APP_SERVER_ARGV,
  type CodexStdioTransport,
  type CodexStdioTransportOptions,
  type StdioTransportInternals,
} from './stdio-config.js';

import { OwnedGroup } from './process-group.js';
import { createOwnerId, MarkedProcesses, withOwnerMarker } from './owner-marker.js';
import { trackUntilClosed } from './host-exit.js';
import { launchCommand } from './parent-death.js';
import { createLinuxProcProbe, type ProcProbe } from './proc-probe.js';
import { measureProcesses } from './resource-usage.js';
import { passAtExit, realClock, teardown, type LeaderHandle } from './teardown.js';
import { CodexTransportError, type CodexExitStatus, type CodexFrameSink } from './types.js';

export {
  CODEX_APP_SERVER_ARGV,
  checkStdioConfig,
  type CodexStdioTransport,
  type CodexStdioTransportOptions,
  type StdioTransportInternals,
} from './stdio-config.js';

const noop = (): void => undefined;

function failedTransport(error: CodexTransportError, ownerId: string): CodexStdioTransport {
  return {
    ownerId,
    parentDeathSignal: false,
    setKeepAlive: noop,
    start(sink) {
      sink.onEnd(error);
    },
    send: () => Promise.reject(new CodexTransportError('write_refused')),
    exitStatus: () => undefined,
    close: () => Promise.resolve(),
    resourceUsage: () => Promise.resolve({ rssBytes: 0, cpuPercent: 0, processes: 0 }),
  };
}

/** The leader's start time: owned processes are never older (undefined when unreadable). */
function leaderStartOf(
  probe: ProcProbe,
  pid: number,
  group: OwnedGroup | undefined,
): number | undefined {
  if (group !== undefined) return group.leaderStart;
  const ev = probe.statOf(pid);
  return ev.kind === 'stat' ? ev.starttime : undefined;
}

export function createCodexStdioTransport(config: CodexStdioTransportOptions): CodexStdioTransport {
  checkStdioConfig(config);
  return spawnCodexStdioTransport(config);
}

/** Internal: the transport with an injectable identity probe and clock. */
export function spawnCodexStdioTransport(
  config: CodexStdioTransportOptions,
  internals: StdioTransportInternals = {},
): CodexStdioTransport {
  const probe = internals.probe ?? createLinuxProcProbe();
  const clock = internals.clock ?? realClock;
  const useProcessGroup = config.useProcessGroup ?? process.platform !== 'win32';
  const exitDrainMs = config.exitDrainMs ?? 250;
  const ownerId = createOwnerId();
  const env = withOwnerMarker(config.env ?? process.env, ownerId);
  const launch = launchCommand(
    config.executable ?? 'codex',
    [...(config.extraArgs ?? []), ...CODEX_APP_SERVER_ARGV],
    { parentDeathSignal: config.parentDeathSignal ?? true, env, cwd: config.cwd },
  );

  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(launch.file, [...launch.args], {
      cwd: config.cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      detached: useProcessGroup,
      windowsHide: true,
    });
  } catch (err) {
    return failedTransport(
      new CodexTransportError('spawn_failed', { cause: causeToken(err) }),
      ownerId,
    );
  }
  // EMFILE/ENFILE: Node returns a child without stdio streams (and no process) and emits
  // 'error' on the next tick; that error must not go unhandled.
  const pipes: readonly (object | null | undefined)[] = [child.stdin, child.stdout, child.stderr];
  if (pipes.some((p) => p == null)) {
    child.on('error', noop);
    return failedTransport(new CodexTransportError('spawn_failed', { cause: 'unknown' }), ownerId);
  }

  const pid = child.pid;
  // the leader's identity is read synchronously, before anything can reap it
  const group =
    pid !== undefined && useProcessGroup && probe.canAttribute()
      ? new OwnedGroup(probe, pid)
      : undefined;
  const marked =
    pid !== undefined && probe.canAttribute()
      ? new MarkedProcesses(probe, ownerId, process.pid, leaderStartOf(probe, pid, group))
      : undefined;
  // stdout is read from start() on: until then the pipe holds what codex writes
  let sink: CodexFrameSink | undefined;
  let ended: { readonly error: Error | undefined } | undefined;
  const decoder = new ChunkDecoder({
    onFrame: (value) => {
      sink?.onFrame(value);
    },
    // a host callback must not break decoding
    onDrop: (reason) => {
      callSafely(() => config.onDrop?.(reason));
    },
    ...(config.maxLineLength === undefined ? {} : { maxLineLength: config.maxLineLength }),
  });

  let spawned = pid !== undefined;
  let exited = pid === undefined;
  let exitStatus: CodexExitStatus | undefined;
  let stdoutEnded = false;
  let closing = false;
  /** Idempotent once it succeeded, shared while in flight, retryable after a failure. */
  const closeAttempt = new RetryableAttempt({ once: true });
  const exitWaiters = new Set<() => void>();

  /** The stream's end, once: the decoder's last frame first, then the sink hears why. */
  const endStream = (error?: Error): void => {
    if (ended !== undefined) return;
    decoder.end();
    ended = { error };
    sink?.onEnd(error);
  };
  const finishStream = (): void => {
    endStream();
  };

  child.stdin.on('error', noop);
  child.stderr.on('error', noop);
  child.stderr.resume(); // drained and discarded: it may hold credentials, paths or prompts
  child.stdout.on('end', () => {
    stdoutEnded = true;
    finishStream();
  });
  child.stdout.on('error', (err) => {
    endStream(new CodexTransportError('stdout_error', { cause: causeToken(err) }));
  });
  child.on('spawn', () => {
    spawned = true;
  });
  child.on('error', (err) => {
    if (spawned) return; // e.g. a failed kill; exit/close still follow
    exited = true;
    untrack(); // nothing was started
    endStream(new CodexTransportError('spawn_failed', { cause: causeToken(err) }));
    for (const wake of exitWaiters) wake();
  });
  let provenEmptyAtExit = false;
  child.on('exit', (code, signal) => {
    exited = true;
    exitStatus = { code, signal };
    provenEmptyAtExit = passAtExit(group, marked, probe);
    for (const wake of exitWaiters) wake();
    if (stdoutEnded) return;
    // bounded drain: a descendant holding the inherited pipe must not keep the stream open
    setTimeout(() => {
      finishStream();
      if (!stdoutEnded) child.stdout.destroy();
    }, exitDrainMs);
  });
  child.on('close', finishStream);

  const leader: LeaderHandle = {
    pid,
    scannedAtExit: group?.leaderStart !== undefined,
    provenEmptyAtExit: () => provenEmptyAtExit,
    isAlive: () => !exited,
    endStdin: () => {
      try {
        child.stdin.end();
      } catch {
        // stdin already gone
      }
    },
    waitExit: (ms) =>
      exited
        ? Promise.resolve(true)
        : new Promise<boolean>((resolve) => {
            const wake = (): void => {
              clearTimeout(timer);
              exitWaiters.delete(wake);
              resolve(true);
            };
            const timer = setTimeout(() => {
              exitWaiters.delete(wake);
              resolve(exited);
            }, ms);
            exitWaiters.add(wake);
          }),
  };

  // synchronous last resort when the host exits without dispose (ADR-0010)
  const untrack = trackUntilClosed({
    killNow: () => {
      if (!exited && pid !== undefined) {
        if (group !== undefined) group.signalGroupWhileLeaderAlive('SIGKILL');
        else {
          try {
            probe.kill(useProcessGroup ? -pid : pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
      marked?.signalAllNow('SIGKILL');
    },
  });

  const attempt = async (): Promise<void> => {
    await Promise.resolve(); // a synchronous throw below must not become a cached result
    closing = true;
    await teardown(leader, {
      probe,
      group,
      marked,
      useProcessGroup,
      closeGraceMs: config.closeGraceMs ?? 2000,
      killGraceMs: config.killGraceMs ?? 2000,
      clock,
    });
    child.stderr.destroy();
    untrack(); // nothing owned is left: the exit hook no longer needs this transport
  };

  const streams = [child.stdin, child.stdout, child.stderr] as const;
  return {
    ownerId,
    parentDeathSignal: launch.parentDeathSignal,
    setKeepAlive(keepAlive) {
      // an idle session must not hold the host's event loop open (ADR-0009)
      const method = keepAlive ? 'ref' : 'unref';
      child[method]();
      for (const stream of streams) {
        const handle = stream as unknown as { ref?: () => void; unref?: () => void };
        handle[method]?.();
      }
    },
    start(next) {
      if (sink !== undefined) throw new Error('codex transport already started');
      sink = next;
      if (ended !== undefined) {
        next.onEnd(ended.error);
        return;
      }
      child.stdout.on('data', (chunk: Buffer) => {
        decoder.write(chunk);
      });
    },
    send: createStdinWriter(child.stdin, {
      open: () => !closing && !exited,
      drainTimeoutMs: config.drainTimeoutMs ?? 30_000,
    }),
    close() {
      return closeAttempt.run(attempt);
    },
    exitStatus: () => exitStatus,
    resourceUsage() {
      // while the leader lives the group id is provably ours, so this also records new members
      if (!exited) group?.scan('leader_alive');
      const pids: number[] = [];
      if (!exited && pid !== undefined) pids.push(pid);
      if (group !== undefined) pids.push(...group.members.keys());
      return measureProcesses(pids);
    },
  };
}
