import { fileURLToPath } from 'node:url';
import { liveProcesses, procStat } from './proc-scan.js';

export const standIn = (name: string): string =>
  fileURLToPath(new URL(`./stand-ins/${name}`, import.meta.url));

/** A bounded wait with a clear failure message. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`timed out after ${ms} ms waiting for ${what}`));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function waitUntil(ms: number, what: string, predicate: () => boolean): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Alive = present in /proc and not a zombie. */
export function isAlive(pid: number): boolean {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

/** Live (non-zombie) processes whose process group is `pgid`. */
export function groupMembers(pgid: number): number[] {
  return liveProcesses()
    .filter((p) => p.pgid === pgid)
    .map((p) => p.pid);
}

/** Pull frames from a shared iterator until one matches. */
export async function nextMatching(
  it: AsyncIterator<unknown>,
  what: string,
  match: (frame: Record<string, unknown>) => boolean,
  ms = 10_000,
): Promise<Record<string, unknown>> {
  return within(
    ms,
    what,
    (async () => {
      for (;;) {
        const r = await it.next();
        if (r.done === true) throw new Error(`stream ended before ${what}`);
        const frame: unknown = r.value;
        if (
          typeof frame === 'object' &&
          frame !== null &&
          match(frame as Record<string, unknown>)
        ) {
          return frame as Record<string, unknown>;
        }
      }
    })(),
  );
}

/** Drain to the end; resolves with the remaining frames. */
export async function drain(
  it: AsyncIterator<unknown>,
  what: string,
  ms = 10_000,
): Promise<unknown[]> {
  return within(
    ms,
    what,
    (async () => {
      const rest: unknown[] = [];
      for (;;) {
        const r = await it.next();
        if (r.done === true) return rest;
        rest.push(r.value);
      }
    })(),
  );
}

/** Reaped = no /proc entry at all (not even a zombie): the parent has collected the exit. */
export function isReaped(pid: number): boolean {
  return procStat(pid) === undefined;
}
