/**
 * The clock SQLite leases are measured in (ADR-0053). Every process sharing a SQLite file runs on
 * one machine (a WAL database needs a shared-memory index), so all of them read one monotonic
 * clock: Linux's CLOCK_MONOTONIC (`process.hrtime`), which a wall-clock step never moves. Its
 * values only mean something within one boot, so each lease carries the boot id it was
 * measured under and a lease of another boot has lapsed. Where there is no boot id (not Linux)
 * the wall clock is used instead, and a step of it can only shorten or lengthen a lease: the
 * fencing token, not the clock, keeps two writers apart.
 */
import { readFileSync, readlinkSync } from 'node:fs';

export interface MachineClock {
  /** What `now()` is measured in; a lease written under another tag has lapsed. */
  readonly tag: string;
  /** Milliseconds on the machine's clock. */
  now(): number;
  /** This process as a lease names its holder, when a takeover can tell it is gone. */
  readonly holder: string | undefined;
  /** The lease's holder is provably gone: its process no longer exists on this machine. */
  gone(holder: string | null): boolean;
}

function readOrUndefined(read: () => string): string | undefined {
  try {
    const value = read().trim();
    return value === '' ? undefined : value;
  } catch {
    return undefined;
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists and is another user's; only "no such process" proves it gone
    return (error as { code?: unknown }).code !== 'ESRCH';
  }
}

export function machineClock(): MachineClock {
  const boot = readOrUndefined(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8'));
  if (boot === undefined) {
    return { tag: 'wall', now: () => Date.now(), holder: undefined, gone: () => false };
  }
  // a pid names a process only within its pid namespace (a container has its own)
  const space = readOrUndefined(() => readlinkSync('/proc/self/ns/pid'));
  const prefix = space === undefined ? undefined : `${boot} ${space} `;
  return {
    tag: `boot ${boot}`,
    now: () => Number(process.hrtime.bigint() / 1_000_000n),
    holder: prefix === undefined ? undefined : `${prefix}${process.pid}`,
    gone(holder) {
      if (prefix === undefined || holder?.startsWith(prefix) !== true) return false;
      const pid = Number(holder.slice(prefix.length));
      // a reused pid reads as alive: the lease then lapses by expiry, never early
      return Number.isSafeInteger(pid) && pid > 0 && !processExists(pid);
    },
  };
}
