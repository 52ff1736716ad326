/**
 * An in-memory command table that keeps the contract of store/commands.ts, shared by the
 * "runtimes" of a router test, and the pieces a router over it needs: a store with one open
 * session, a fake session that records what it carried out, and a router on a fake clock.
 */
import type { JsonObject } from '@relvo-labs/agent-provider';
import { CommandRouter } from '../src/commands/router.js';
import { RuntimeError } from '../src/errors.js';
import type { RuntimeSession } from '../src/session/session.js';
import type { CommandTable, NewCommand, StoredCommand } from '../src/store/commands.js';
import { createMemoryEventStore } from '../src/store/memory.js';
import type { EventStore, StoredSession } from '../src/store/types.js';
import { FakeClock } from './fake-clock.js';

/** One table shared by every "runtime" of a test; `holder` says who holds each lease. */
export class Shared {
  readonly rows = new Map<string, StoredCommand>();
  readonly holder = new Map<string, string>();
  readonly listeners = new Set<() => void>();
  /** `leaseHolder` holds ses_1's lease from the start. */
  constructor(leaseHolder?: string) {
    if (leaseHolder !== undefined) this.holder.set('ses_1', leaseHolder);
  }
  notify(): void {
    for (const l of [...this.listeners]) l();
  }
  /** The command table as runtime `owner` sees it. */
  table(owner: string): CommandTable {
    return tableFor(this, owner);
  }
}

function tableFor(shared: Shared, owner: string): CommandTable {
  const held = (sessionId: string): boolean => shared.holder.get(sessionId) === owner;
  return {
    owner,
    enqueue(c: NewCommand) {
      if (shared.rows.has(c.commandId)) return Promise.reject(new Error('duplicate'));
      shared.rows.set(c.commandId, { ...c, issuedBy: owner, state: 'pending' });
      shared.notify();
      return Promise.resolve();
    },
    get: (id) => Promise.resolve(shared.rows.get(id)),
    pendingSessions: (limit) =>
      Promise.resolve(
        new Set(
          [...shared.rows.values()]
            .filter((c) => c.state === 'pending')
            .map((c) => c.sessionId)
            .slice(0, limit),
        ),
      ),
    unsettled: (sessionId, limit) =>
      Promise.resolve(
        [...shared.rows.values()]
          .filter((c) => c.sessionId === sessionId && c.state !== 'settled')
          .slice(0, limit),
      ),
    accept(id) {
      const c = shared.rows.get(id);
      if (c === undefined || c.state !== 'pending') return Promise.resolve(false);
      if (!held(c.sessionId)) {
        return Promise.reject(new RuntimeError('store_unavailable', 'lease_lost', 'lost'));
      }
      shared.rows.set(id, { ...c, state: 'accepted', acceptedBy: owner });
      shared.notify();
      return Promise.resolve(true);
    },
    settle(id, settlement: JsonObject) {
      const c = shared.rows.get(id);
      if (c === undefined || c.state === 'settled') return Promise.resolve(false);
      const withdrawing = settlement['outcome'] === 'withdrawn';
      if (withdrawing ? c.state !== 'pending' : !held(c.sessionId)) return Promise.resolve(false);
      shared.rows.set(id, { ...c, state: 'settled', settlement });
      shared.notify();
      return Promise.resolve(true);
    },
    watch(onChange) {
      shared.listeners.add(onChange);
      return Promise.resolve(() => shared.listeners.delete(onChange));
    },
    owners: () =>
      Promise.resolve(
        new Map([...shared.holder].map(([s, o]) => [s, { owner: o, self: o === owner }])),
      ),
    ownerOf: (sessionId) => {
      const o = shared.holder.get(sessionId);
      return Promise.resolve(o === undefined ? undefined : { owner: o, self: o === owner });
    },
  };
}

export const OPEN: StoredSession = {
  sessionId: 'ses_1',
  state: 'ready',
  defaultProfile: 'm',
  openedAt: '2026-12-05T00:00:00.000Z',
  updatedAt: '2026-12-05T00:00:00.000Z',
  lastSequence: 2,
};

function storeWith(table: CommandTable, summary: StoredSession | null = OPEN): EventStore {
  return {
    ...createMemoryEventStore(),
    getSession: () => Promise.resolve(summary ?? undefined),
    commands: table,
  };
}

/** What a fake session carried out. */
export interface Done {
  readonly steers: string[];
  readonly answers: string[];
}

/** A session that records its steers and answers in `done`, or refuses every answer with `refuse`. */
export function fakeSession(
  refuse?: RuntimeError,
  done: Done = { steers: [], answers: [] },
): RuntimeSession & { done: Done } {
  return {
    id: 'ses_1',
    done,
    respond: (interactionId: string) => {
      if (refuse !== undefined) return Promise.reject(refuse);
      done.answers.push(interactionId);
      return Promise.resolve();
    },
    steer: (input: unknown) => {
      done.steers.push(String(input));
      return Promise.resolve();
    },
  } as unknown as RuntimeSession & { done: Done };
}

export interface RouterOptions {
  /** The session live here: fixed, or read on every look (a takeover in progress). */
  readonly live?: RuntimeSession | (() => RuntimeSession | undefined);
  readonly resume?: () => Promise<RuntimeSession>;
  /** What the store says of ses_1; null: nothing. */
  readonly summary?: StoredSession | null;
}

let ids = 0;
/** The router of runtime `owner` over the shared table, commands timing out after 5 s. */
export function router(
  shared: Shared,
  owner: string,
  clock: FakeClock,
  options: RouterOptions = {},
): CommandRouter {
  const { live, resume = () => Promise.reject(new Error('no resume')) } = options;
  const session = typeof live === 'function' ? live : () => live;
  return new CommandRouter({
    store: storeWith(tableFor(shared, owner), options.summary),
    clock,
    ids: (prefix) => `${prefix}_${String((ids += 1))}`,
    timeoutMs: 5_000,
    live: session,
    resume,
    liveIds: () => (session() === undefined ? [] : ['ses_1']),
    settleDead: () => Promise.resolve(),
  });
}

/** Lets every promise chain that can move on do so. */
export async function settleMicrotasks(): Promise<void> {
  for (let i = 0; i < 50; i += 1) await new Promise((r) => setImmediate(r));
}

/** How a routed command ended: 'resolved', or the reason it was refused with. */
export function outcomeOf(routed: Promise<unknown>): Promise<string> {
  return routed.then(
    () => 'resolved',
    (e: unknown) => (e as RuntimeError).reason,
  );
}
