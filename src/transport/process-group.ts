/**
 * Bookkeeping for the process group the transport owns (docs/behaviour.md §3.6). Members are exact
 * (PID, start time) pairs, adopted only under a provenance that proves the group id is still ours,
 * and re-read immediately before every signal. Unknown evidence is never treated as absence.
 */
import {
  snapshotProcs,
  type PidEvidence,
  type ProcProbe,
  type ProcSnapshot,
} from './proc-probe.js';

export const PROVENANCES = [
  'leader_alive',
  'group_continuous',
  'leader_exiting',
  'post_exit_probe',
] as const;
export type Provenance = (typeof PROVENANCES)[number];

export interface ScanResult {
  /** Listing readable, every candidate readable, nothing unattributable. */
  readonly complete: boolean;
  /** Members adopted by this scan (PIDs). */
  readonly adopted: readonly number[];
  readonly unattributable: number;
}

export type MemberSignalOutcome = 'signalled' | 'dropped' | 'unknown' | 'failed';

export interface MemberCensus {
  /** Members whose identity was re-read and still matches. */
  readonly alive: number;
  /** Members whose evidence could not be read this time. */
  readonly unknown: number;
}

type StatEvidence = Extract<PidEvidence, { kind: 'stat' }>;

/**
 * Re-read every recorded (PID → start time) member: count the ones still exactly that process
 * (and still `belongs`), drop the ones that are gone or changed; unknown evidence is counted.
 */
export function censusOf(
  probe: ProcProbe,
  members: Map<number, number>,
  belongs: (ev: StatEvidence) => boolean,
): MemberCensus {
  let alive = 0;
  let unknown = 0;
  for (const [pid, start] of members) {
    const ev = probe.statOf(pid);
    if (ev.kind === 'unknown') unknown += 1;
    else if (ev.kind === 'stat' && belongs(ev) && ev.starttime === start) alive += 1;
    else members.delete(pid);
  }
  return { alive, unknown };
}

/** Re-read one member's identity right before the signal; a changed or gone one is dropped. */
export function signalIfSame(
  probe: ProcProbe,
  members: Map<number, number>,
  pid: number,
  signal: NodeJS.Signals,
  belongs: (ev: StatEvidence) => boolean,
): MemberSignalOutcome {
  const start = members.get(pid);
  if (start === undefined) return 'dropped';
  const ev = probe.statOf(pid);
  if (ev.kind === 'unknown') return 'unknown';
  if (ev.kind !== 'stat' || !belongs(ev) || ev.starttime !== start) {
    members.delete(pid);
    return 'dropped';
  }
  try {
    probe.kill(pid, signal);
    return 'signalled';
  } catch (err) {
    if (typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'ESRCH') {
      members.delete(pid);
      return 'dropped';
    }
    return 'failed';
  }
}

export class OwnedGroup {
  readonly pgid: number;
  readonly leaderPid: number;
  /** The leader's start time, read synchronously right after spawning (undefined if unreadable). */
  readonly leaderStart: number | undefined;
  /** Owned members other than the leader: PID → start time. */
  readonly members = new Map<number, number>();
  /** Discovery doubt: persists across attempts until a complete scan finds nothing unattributable. */
  doubt: string | undefined;
  readonly #probe: ProcProbe;

  constructor(probe: ProcProbe, leaderPid: number) {
    this.#probe = probe;
    this.leaderPid = leaderPid;
    this.pgid = leaderPid; // a detached child leads its own group
    const ev = probe.statOf(leaderPid);
    this.leaderStart = ev.kind === 'stat' && ev.pgid === leaderPid ? ev.starttime : undefined;
  }

  /**
   * Scan /proc for processes in the group and adopt what the provenance allows. `snapshot`, when
   * given, must have been read just now (the caller shares one pass between sweeps).
   */
  scan(provenance: Provenance, snapshot: ProcSnapshot = snapshotProcs(this.#probe)): ScanResult {
    if (snapshot.kind === 'unknown') {
      this.doubt = `${provenance}_unreadable`;
      return { complete: false, adopted: [], unattributable: 0 };
    }
    let unreadable = false;
    const candidates: { pid: number; starttime: number }[] = [];
    for (const { pid, ev } of snapshot.entries) {
      if (ev.kind === 'unknown') {
        // could be in our group; we cannot tell
        unreadable = true;
        continue;
      }
      const recorded = this.members.get(pid);
      if (ev.kind !== 'stat' || ev.pgid !== this.pgid) {
        // gone, foreign, or in another group: not (or no longer) ours
        if (recorded !== undefined) this.members.delete(pid);
        continue;
      }
      if (
        pid === this.leaderPid &&
        (this.leaderStart === undefined || ev.starttime === this.leaderStart)
      )
        continue;
      if (recorded !== undefined) {
        if (recorded === ev.starttime) continue; // already ours
        this.members.delete(pid); // PID reused: the process we owned is gone
      }
      candidates.push({ pid, starttime: ev.starttime });
    }

    const adopted: number[] = [];
    let unattributable = 0;
    const mayAdopt = this.#mayAdopt(provenance);
    for (const c of candidates) {
      if (mayAdopt(c.starttime)) {
        this.members.set(c.pid, c.starttime);
        adopted.push(c.pid);
      } else {
        unattributable += 1;
      }
    }

    if (unreadable) this.doubt = `${provenance}_unreadable`;
    else if (unattributable > 0) this.doubt = `${provenance}_unattributable`;
    const complete = !unreadable && unattributable === 0;
    // the reap instant is never the sole basis for claiming completeness
    if (complete && provenance !== 'leader_exiting') this.doubt = undefined;
    return { complete, adopted, unattributable };
  }

  #mayAdopt(provenance: Provenance): (starttime: number) => boolean {
    switch (provenance) {
      case 'leader_alive':
        return () => true;
      case 'group_continuous': {
        // checked after the candidates were read: a member alive throughout keeps the id ours
        const anchored = this.census().alive > 0;
        return () => anchored;
      }
      case 'leader_exiting': {
        const start = this.leaderStart;
        return (starttime) => start !== undefined && starttime >= start;
      }
      case 'post_exit_probe':
        return () => false;
    }
  }

  /** Re-read every member; drop the ones that are gone or no longer the same process. */
  census(): MemberCensus {
    return censusOf(this.#probe, this.members, (ev) => ev.pgid === this.pgid);
  }

  /** Re-read one member's identity and signal it only if it is still exactly that process. */
  signalMember(pid: number, signal: NodeJS.Signals): MemberSignalOutcome {
    return signalIfSame(this.#probe, this.members, pid, signal, (ev) => ev.pgid === this.pgid);
  }

  /**
   * Signal the whole group, only while the leader is provably alive and still the same process.
   * The caller guarantees the leader has not been reaped.
   */
  signalGroupWhileLeaderAlive(signal: NodeJS.Signals): boolean {
    const ev = this.#probe.statOf(this.leaderPid);
    if (ev.kind !== 'stat' || ev.pgid !== this.pgid) return false;
    if (this.leaderStart !== undefined && ev.starttime !== this.leaderStart) return false;
    try {
      this.#probe.kill(-this.pgid, signal);
      return true;
    } catch {
      return false;
    }
  }
}
