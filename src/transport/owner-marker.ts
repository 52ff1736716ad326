/**
 * Ownership that survives reparenting (ADR-0006). Every process the transport starts carries
 * `RELVO_CODEX_OWNER=<id>` in its environment, unique per transport; each descendant inherits it
 * and `/proc/<pid>/environ` shows it even after the process has left the app-server's process
 * group, its session and its parent. Processes are recorded as exact (PID, start time) pairs and
 * re-read immediately before every signal, like the group members of ADR-0004.
 */
import { randomUUID } from 'node:crypto';
import {
  censusOf,
  signalIfSame,
  type MemberCensus,
  type MemberSignalOutcome,
} from './process-group.js';
import { snapshotProcs, type ProcProbe, type ProcSnapshot } from './proc-probe.js';

/** The agreed name (see docs/processes.md); an environment policy for commands must keep it. */
export const OWNER_ENV_VAR = 'RELVO_CODEX_OWNER';

export function createOwnerId(): string {
  return randomUUID();
}

/** The child environment with this transport's marker set (overriding an inherited one). */
export function withOwnerMarker(
  env: Readonly<Record<string, string | undefined>>,
  ownerId: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  out[OWNER_ENV_VAR] = ownerId;
  return out;
}

export interface MarkerScan {
  /** The listing was readable (processes hiding their environment do not make it incomplete). */
  readonly complete: boolean;
  readonly adopted: readonly number[];
  /** Live processes whose environment could not be read and that no owned parent vouches for. */
  readonly unreadable: number;
}

interface Candidate {
  readonly pid: number;
  readonly ppid: number;
  readonly starttime: number;
}

/**
 * The processes carrying one owner id. Adoption needs either the marker in the environment
 * (read between two identical stat reads, so a recycled PID cannot lend its identity) or an
 * owned, living parent (which also covers a child that scrubbed its environment or hid it,
 * as long as its parent is still there).
 */
export class MarkedProcesses {
  readonly ownerId: string;
  /** PID → start time. */
  readonly members = new Map<number, number>();
  /** Set when the PID listing itself could not be read; cleared by a readable scan. */
  doubt: string | undefined;
  readonly #probe: ProcProbe;
  readonly #entry: string;
  readonly #selfPid: number;
  readonly #notBefore: number | undefined;

  /** The app-server's start time: a process that started earlier is never owned. */
  get notBefore(): number | undefined {
    return this.#notBefore;
  }

  /**
   * `notBefore`: the app-server's start time (clock ticks since boot, as in `/proc/<pid>/stat`).
   * Every owned process descends from it, so none started earlier: older processes — nearly the
   * whole machine — are passed over without reading their environment. Undefined reads them all.
   */
  constructor(
    probe: ProcProbe,
    ownerId: string,
    selfPid: number = process.pid,
    notBefore?: number,
  ) {
    this.#probe = probe;
    this.ownerId = ownerId;
    this.#entry = `${OWNER_ENV_VAR}=${ownerId}`;
    this.#selfPid = selfPid;
    this.#notBefore = notBefore;
  }

  /** `snapshot`, when given, must have been read just now (shared with the group sweep). */
  scan(snapshot: ProcSnapshot = snapshotProcs(this.#probe)): MarkerScan {
    if (snapshot.kind === 'unknown') {
      this.doubt = 'marker_listing_unreadable';
      return { complete: false, adopted: [], unreadable: 0 };
    }
    const adopted: number[] = [];
    const orphans: Candidate[] = [];
    const hidden = new Set<number>();
    const notBefore = this.#notBefore ?? -1;
    for (const { pid, ev } of snapshot.entries) {
      if (pid === this.#selfPid || pid <= 1) continue;
      const recorded = this.members.get(pid);
      if (ev.kind !== 'stat') {
        if (recorded !== undefined && ev.kind !== 'unknown') this.members.delete(pid);
        continue;
      }
      if (recorded !== undefined) {
        if (recorded === ev.starttime) continue;
        this.members.delete(pid); // PID reused: the owned process is gone
      }
      // older than the app-server: neither marked by us nor the child of anything we own
      if (ev.starttime < notBefore) continue;
      const marker = this.#probe.markerOf(pid, this.#entry);
      if (marker === 'marked') {
        const again = this.#probe.statOf(pid);
        if (again.kind === 'stat' && again.starttime === ev.starttime) {
          this.members.set(pid, ev.starttime);
          adopted.push(pid);
        }
        continue;
      }
      if (marker === 'gone') continue;
      if (marker === 'unreadable') hidden.add(pid);
      orphans.push({ pid, ppid: ev.ppid, starttime: ev.starttime });
    }
    // a child of an owned process is owned, whatever its environment says (to a fixpoint)
    for (let grew = true; grew;) {
      grew = false;
      for (let i = orphans.length - 1; i >= 0; i -= 1) {
        const c = orphans[i];
        if (c === undefined) continue;
        const parentStart = this.members.get(c.ppid);
        if (parentStart === undefined || c.starttime < parentStart) continue;
        this.members.set(c.pid, c.starttime);
        adopted.push(c.pid);
        hidden.delete(c.pid);
        orphans.splice(i, 1);
        grew = true;
      }
    }
    this.doubt = undefined;
    return { complete: true, adopted, unreadable: hidden.size };
  }

  /** Re-read every member; drop the ones that are gone or no longer the same process. */
  census(): MemberCensus {
    return censusOf(this.#probe, this.members, () => true);
  }

  /** Re-read one member's identity and signal it only if it is still exactly that process. */
  signalMember(pid: number, signal: NodeJS.Signals): MemberSignalOutcome {
    return signalIfSame(this.#probe, this.members, pid, signal, () => true);
  }

  /** Scan and signal everything owned, synchronously (the host-exit path). Returns the count. */
  signalAllNow(signal: NodeJS.Signals): number {
    this.scan();
    let n = 0;
    for (const pid of [...this.members.keys()]) {
      if (this.signalMember(pid, signal) === 'signalled') n += 1;
    }
    return n;
  }
}
