/**
 * The `close()` algorithm (docs/behaviour.md §3.5): stdin EOF → SIGTERM group → SIGKILL group → verify the leader
 * exited → sweep the owned group. Throws a CodexTransportError on any failure; the caller keeps
 * ownership so a later attempt can still succeed.
 */
import type { MarkedProcesses } from './owner-marker.js';
import type { OwnedGroup } from './process-group.js';
import { snapshotProcs, type ProcProbe, type ProcSnapshot } from './proc-probe.js';
import { CodexTransportError } from './types.js';

/** Group membership poll interval (docs/behaviour.md §2.3; not configurable). */
export const GROUP_POLL_MS = 25;

export interface LeaderHandle {
  /** Undefined when the spawn never produced a process. */
  readonly pid: number | undefined;
  /** False once the leader's exit has been observed (it has been reaped). */
  isAlive(): boolean;
  endStdin(): void;
  /** Resolves true once the leader has exited, false after `ms`. */
  waitExit(ms: number): Promise<boolean>;
  /**
   * True when the group is scanned synchronously at the leader's reap instant, knowing the
   * leader's start time (the stdio transport's exit handler). Every member alive then is adopted
   * there, so the scan before closing stdin would only delay the close.
   */
  readonly scannedAtExit?: boolean;
  /**
   * True when the pass taken at the leader's reap instant (`passAtExit`) found nothing owned
   * alive and nothing vanishing mid-pass: it is then the proof after the exit, and teardown
   * ends there (ADR-0004, amended).
   */
  provenEmptyAtExit?(): boolean;
}

export interface TeardownClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: TeardownClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface TeardownDeps {
  readonly probe: ProcProbe;
  /** Present only when the group can be attributed (Linux /proc, useProcessGroup). */
  readonly group: OwnedGroup | undefined;
  /** Present only when descendants can be attributed by the owner marker (Linux /proc). */
  readonly marked?: MarkedProcesses | undefined;
  readonly useProcessGroup: boolean;
  readonly closeGraceMs: number;
  readonly killGraceMs: number;
  readonly clock: TeardownClock;
}

/** Signal the leader's group (or just the leader) while it is alive; never after it is gone. */
function signalLeader(leader: LeaderHandle, deps: TeardownDeps, signal: NodeJS.Signals): void {
  const pid = leader.pid;
  if (pid === undefined || !leader.isAlive()) return;
  if (deps.group !== undefined) {
    deps.group.signalGroupWhileLeaderAlive(signal);
    return;
  }
  // No attribution (non-Linux, or useProcessGroup off): the unreaped leader still holds its
  // PID and group id, so signalling them is safe; nothing is claimed about descendants.
  try {
    deps.probe.kill(deps.useProcessGroup ? -pid : pid, signal);
  } catch {
    // already exiting
  }
}

export async function teardown(leader: LeaderHandle, deps: TeardownDeps): Promise<void> {
  const { group, clock } = deps;
  if (leader.pid === undefined) return;

  if (leader.isAlive()) {
    if (leader.scannedAtExit !== true) group?.scan('leader_alive');
    leader.endStdin();
    if (!(await leader.waitExit(deps.closeGraceMs))) {
      signalLeader(leader, deps, 'SIGTERM');
      if (!(await leader.waitExit(deps.killGraceMs))) {
        signalLeader(leader, deps, 'SIGKILL');
        if (!(await leader.waitExit(deps.killGraceMs))) {
          throw new CodexTransportError('child_did_not_exit');
        }
      }
    }
  }

  if (!leader.isAlive() && leader.provenEmptyAtExit?.() === true) return;

  // the marker sweep runs even when the group sweep failed: it is the wider net
  const quiet = firstPass(
    group,
    deps.marked,
    deps.probe,
    leader.isAlive() ? 'leader_alive' : 'post_exit_probe',
  );
  let failure: Error | undefined;
  let stale = false;
  if (group !== undefined) {
    // a drain waits: the marker sweep then needs a pass of its own
    stale = group.members.size > 0;
    try {
      await sweep(group, leader, deps, clock, quiet);
    } catch (err) {
      failure = err instanceof Error ? err : new CodexTransportError('group_cleanup_unverified');
    }
  }
  if (deps.marked !== undefined) {
    try {
      await sweepMarked(deps.marked, deps, clock, quiet, stale);
    } catch (err) {
      failure ??= err instanceof Error ? err : new CodexTransportError('group_cleanup_unverified');
    }
  }
  if (failure !== undefined) throw failure;
}

/**
 * The first scan of both sweeps, from one pass over /proc (a listing and one `stat` per process;
 * the marker sweep reads an environment only for processes younger than the app-server). Returns
 * true — quiet — when the pass found nothing owned and no listed process vanished while the
 * pass was read: nothing owned was then alive to fork anything the listing missed, nothing needs
 * a signal, and this pass is also the scan after the (empty) drain. A process that vanished
 * mid-pass may have been an owned one that forked and exited, so then a second pass decides.
 */
function firstPass(
  group: OwnedGroup | undefined,
  marked: MarkedProcesses | undefined,
  probe: ProcProbe,
  provenance: 'leader_alive' | 'post_exit_probe',
): boolean {
  if (group === undefined && marked === undefined) return true;
  for (let pass = 1; ; pass += 1) {
    const snapshot = snapshotProcs(probe);
    group?.scan(provenance, snapshot);
    marked?.scan(snapshot);
    if ((group?.members.size ?? 0) + (marked?.members.size ?? 0) > 0) return false;
    if (pass === 2 || steady(snapshot, startOf(group, marked))) return true;
  }
}

/**
 * The one pass at the leader's reap instant, shared by the group (adopting only members no
 * older than the leader) and the marker sweep. True when it proves nothing owned is left: no
 * member, no doubt, and no listed process vanished while it was read. Nothing owned was then
 * alive, and only an owned process starts owned ones, so the proof holds from then on.
 */
export function passAtExit(
  group: OwnedGroup | undefined,
  marked: MarkedProcesses | undefined,
  probe: ProcProbe,
): boolean {
  if (group === undefined && marked === undefined) return false;
  const snapshot = snapshotProcs(probe);
  group?.scan('leader_exiting', snapshot);
  marked?.scan(snapshot);
  return (
    steady(snapshot, startOf(group, marked)) &&
    (group === undefined || (group.members.size === 0 && group.doubt === undefined)) &&
    (marked === undefined || (marked.members.size === 0 && marked.doubt === undefined))
  );
}

/** The app-server's start time, as the group or the marker sweep recorded it. */
function startOf(group: OwnedGroup | undefined, marked: MarkedProcesses | undefined) {
  return group?.leaderStart ?? marked?.notBefore;
}

/**
 * Every listed process was still there (or provably someone else's) when it was read. A zombie
 * that started before the app-server (strictly: an earlier clock tick) is someone else's: it can
 * have forked nothing owned, so its exit hides nothing. Machines whose PID 1 reaps late keep
 * such zombies listed for seconds, and each one used to cost a dispose two more passes.
 */
function steady(snapshot: ProcSnapshot, appServerStart: number | undefined): boolean {
  return (
    snapshot.kind === 'list' &&
    snapshot.entries.every(
      (e) =>
        e.ev.kind !== 'gone' ||
        (appServerStart !== undefined &&
          e.ev.starttime !== undefined &&
          e.ev.starttime < appServerStart),
    )
  );
}

/**
 * Every process carrying the owner marker, wherever it went (ADR-0006): commands in sessions
 * of their own, children reparented to PID 1, setsid daemons. SIGTERM (+SIGCONT, so a stopped
 * process can act on it), then SIGKILL; new marked processes found while draining are signalled
 * at the current stage. Succeeds only when a scan after the drain finds none alive.
 */
async function sweepMarked(
  marked: MarkedProcesses,
  deps: TeardownDeps,
  clock: TeardownClock,
  quiet: boolean,
  stale: boolean,
): Promise<void> {
  if (stale) marked.scan();
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    if (marked.members.size === 0) break;
    const hit = (pid: number): void => {
      if (marked.signalMember(pid, signal) === 'signalled' && signal === 'SIGTERM') {
        marked.signalMember(pid, 'SIGCONT');
      }
    };
    for (const pid of [...marked.members.keys()]) hit(pid);
    const deadline = clock.now() + deps.killGraceMs;
    for (;;) {
      const census = marked.census();
      if (census.alive === 0 && census.unknown === 0) {
        const late = marked.scan().adopted;
        if (late.length === 0) break;
        for (const pid of late) hit(pid);
      }
      if (clock.now() >= deadline) break;
      await clock.sleep(GROUP_POLL_MS);
      for (const pid of marked.scan().adopted) hit(pid);
    }
  }

  // when the first pass was quiet, nothing was signalled and no time passed: it is that scan
  if (!quiet) marked.scan();
  const census = marked.census();
  if (census.alive > 0) {
    throw new CodexTransportError('process_group_did_not_exit', {
      survivors: census.alive,
      scope: 'owner_marker',
    });
  }
  if (census.unknown > 0) {
    throw new CodexTransportError('group_cleanup_unverified', { doubt: 'marker_unreadable' });
  }
  if (marked.doubt !== undefined) {
    throw new CodexTransportError('group_cleanup_unverified', { doubt: marked.doubt });
  }
}

/**
 * docs/behaviour.md §3.5 step 6: signal every owned member (identity re-checked), drain, escalate,
 * verify. The caller has just scanned the group (`quiet`: and found nothing owned anywhere).
 */
async function sweep(
  group: OwnedGroup,
  leader: LeaderHandle,
  deps: TeardownDeps,
  clock: TeardownClock,
  quiet: boolean,
): Promise<void> {
  const probeProvenance = () => (leader.isAlive() ? 'leader_alive' : 'post_exit_probe');

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    if (group.members.size === 0) break;
    for (const pid of [...group.members.keys()]) group.signalMember(pid, signal);
    const deadline = clock.now() + deps.killGraceMs;
    for (;;) {
      const census = group.census();
      if (census.alive === 0 && census.unknown === 0) break;
      if (clock.now() >= deadline) break;
      await clock.sleep(GROUP_POLL_MS);
      // a surviving member may have forked; a living member keeps the group id ours
      if (group.members.size > 0) {
        for (const pid of group.scan('group_continuous').adopted) group.signalMember(pid, signal);
      }
    }
  }

  const census = group.census();
  if (census.alive > 0) {
    throw new CodexTransportError('process_group_did_not_exit', { survivors: census.alive });
  }
  if (census.unknown > 0) {
    throw new CodexTransportError('group_cleanup_unverified', {
      doubt: 'group_continuous_unreadable',
    });
  }
  // the group must be shown empty now, not just at the start of the sweep (when the first pass
  // was quiet, nothing was signalled and no time passed: it is that proof)
  if (!quiet) group.scan(probeProvenance());
  if (group.doubt !== undefined) {
    throw new CodexTransportError('group_cleanup_unverified', { doubt: group.doubt });
  }
}
