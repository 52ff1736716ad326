/**
 * The console's read side: every session in the log with its digest, its owner and live state
 * (wherever it runs), and the inbox of every interaction pending in the log. Digests are folded
 * from the log incrementally (each read starts where the last one stopped) through the
 * runtime's public API only, so what other processes write shows at the next read.
 */
import { isRuntimeError, type AgentRuntime, type StoredSession } from '@relvo-labs/agent-runtime';
import { SessionDigest, type PendingInteraction, type SessionDigestView } from './digest.js';
import {
  liveStateOf,
  waitingFor,
  type LiveState,
  type SessionOwner,
  type WaitingFor,
} from './live-state.js';

const PAGE = 1000;

export interface SessionRow extends StoredSession, SessionDigestView {
  /** Who holds its lease now: this process, another process or host, or nobody. */
  readonly owner: SessionOwner;
  readonly liveState: LiveState;
  /** With `waiting` (or `stalled` with one still open): what the oldest pending interaction asks. */
  readonly waitingFor?: WaitingFor;
  /** The newest run the log shows open. */
  readonly activeRunId?: string;
  /** Its stored log is damaged: the digest holds what was read before the damage. */
  readonly damaged?: 'log_corrupt';
}

/** An inbox item: the interaction and who owns its session (the one that carries an answer out). */
export interface InboxItem extends PendingInteraction {
  readonly owner: SessionOwner;
}

type Owners = ReadonlyMap<string, 'this_runtime' | 'elsewhere'>;

export class SessionBook {
  readonly #runtime: AgentRuntime;
  readonly #digests = new Map<string, SessionDigest>();

  constructor(runtime: AgentRuntime) {
    this.#runtime = runtime;
  }

  /** The session's digest, caught up with its log; undefined when the store does not know it. */
  async digest(sessionId: string): Promise<SessionDigest | undefined> {
    let d = this.#digests.get(sessionId);
    if (d === undefined) {
      if ((await this.#runtime.store.getSession(sessionId)) === undefined) return undefined;
      d = this.#digests.get(sessionId) ?? new SessionDigest();
      this.#digests.set(sessionId, d);
    }
    for (;;) {
      const from = d.reached + 1;
      const page = await this.#runtime.readEvents(sessionId, { fromSequence: from, limit: PAGE });
      for (const envelope of page) d.apply(envelope);
      if (page.length < PAGE) return d;
    }
  }

  async row(stored: StoredSession, owners: Owners): Promise<SessionRow | undefined> {
    const { d, damaged } = await this.digest(stored.sessionId).then(
      (digest) => ({ d: digest, damaged: false }),
      (error: unknown) => {
        // one damaged log must not fail the list of every session
        if (!isRuntimeError(error) || error.reason !== 'log_corrupt') throw error;
        return { d: this.#digests.get(stored.sessionId), damaged: true };
      },
    );
    if (d === undefined) return undefined;
    const view = d.view();
    const owner = owners.get(stored.sessionId) ?? 'none';
    const activeRunId = view.openRunIds.at(-1);
    const liveState = liveStateOf(stored, owner, view);
    const waits = liveState === 'waiting' || liveState === 'stalled' ? waitingFor(view) : undefined;
    return {
      ...stored,
      ...view,
      ...(damaged ? { damaged: 'log_corrupt' as const } : {}),
      owner,
      liveState,
      ...(waits === undefined ? {} : { waitingFor: waits }),
      ...(activeRunId === undefined ? {} : { activeRunId }),
    };
  }

  async one(sessionId: string): Promise<SessionRow | undefined> {
    const stored = await this.#runtime.store.getSession(sessionId);
    if (stored === undefined) return undefined;
    return this.row(stored, await this.#runtime.sessionOwners());
  }

  /** Newest first. */
  async list(): Promise<SessionRow[]> {
    const stored = [...(await this.#runtime.listSessions())].sort((a, b) =>
      b.openedAt.localeCompare(a.openedAt),
    );
    const owners = await this.#runtime.sessionOwners();
    const rows = await Promise.all(stored.map((s) => this.row(s, owners)));
    return rows.filter((r): r is SessionRow => r !== undefined);
  }

  /**
   * Every interaction pending in the log, oldest first, with its session's owner: an answer is
   * carried out by that owner (routed), or by this process taking an unowned session over.
   */
  async inbox(): Promise<InboxItem[]> {
    return this.inboxOf(await this.list());
  }

  /** The inbox of rows already listed. */
  inboxOf(rows: readonly SessionRow[]): InboxItem[] {
    return rows
      .filter((r) => r.liveState !== 'closed' && r.liveState !== 'failed')
      .flatMap((r) => r.pendingInteractions.map((p) => ({ ...p, owner: r.owner })))
      .sort((a, b) => a.requestedAt.localeCompare(b.requestedAt));
  }
}
