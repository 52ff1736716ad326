/**
 * The console's read side: every stored session with its digest, and the inbox of
 * interactions pending across the live ones. Digests are folded from the log incrementally
 * (each read starts where the last one stopped) through the runtime's public API only.
 */
import { isRuntimeError, type AgentRuntime, type StoredSession } from '@relvo-labs/agent-runtime';
import { SessionDigest, type PendingInteraction, type SessionDigestView } from './digest.js';

const PAGE = 1000;

export interface SessionRow extends StoredSession, SessionDigestView {
  /** Opened by this runtime and not yet closed: it takes turns and answers. */
  readonly live: boolean;
  readonly activeRunId?: string;
  /** Its stored log is damaged: the digest holds what was read before the damage. */
  readonly damaged?: 'log_corrupt';
}

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

  async row(stored: StoredSession): Promise<SessionRow | undefined> {
    const { d, damaged } = await this.digest(stored.sessionId).then(
      (digest) => ({ d: digest, damaged: false }),
      (error: unknown) => {
        // one damaged log must not fail the list of every session
        if (!isRuntimeError(error) || error.reason !== 'log_corrupt') throw error;
        return { d: this.#digests.get(stored.sessionId), damaged: true };
      },
    );
    if (d === undefined) return undefined;
    const live = this.#runtime.session(stored.sessionId);
    return {
      ...stored,
      ...d.view(),
      ...(damaged ? { damaged: 'log_corrupt' as const } : {}),
      live: live !== undefined,
      ...(live?.activeRunId === undefined ? {} : { activeRunId: live.activeRunId }),
    };
  }

  async one(sessionId: string): Promise<SessionRow | undefined> {
    const stored = await this.#runtime.store.getSession(sessionId);
    return stored === undefined ? undefined : this.row(stored);
  }

  /** Newest first. */
  async list(): Promise<SessionRow[]> {
    const stored = [...(await this.#runtime.listSessions())].sort((a, b) =>
      b.openedAt.localeCompare(a.openedAt),
    );
    const rows = await Promise.all(stored.map((s) => this.row(s)));
    return rows.filter((r): r is SessionRow => r !== undefined);
  }

  /** Pending interactions of live sessions, oldest first: only these can still be answered. */
  async inbox(): Promise<PendingInteraction[]> {
    const rows = await this.list();
    return rows
      .filter((r) => r.live)
      .flatMap((r) => r.pendingInteractions)
      .sort((a, b) => a.requestedAt.localeCompare(b.requestedAt));
  }
}
