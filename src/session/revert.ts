/**
 * `ProviderSession.revert` over `thread/revert` (persisted threads only; measured on 0.171.0):
 * the turn to revert before is read from the thread's own list, newest first, so a resumed
 * session takes back turns it never ran itself. Codex takes the turns out of the thread's
 * durable history and touches no file (its schema says so; test/e2e/revert.test.ts measures it).
 * Codex would also revert a streaming turn (ending it); the adapter refuses while a run is
 * active instead, so a run never ends because of a revert it did not ask for.
 */
import {
  revertRequestSchema,
  type ProviderRejection,
  type RevertResult,
} from '@relvo-labs/agent-provider';
import type { ReleaseCapabilities } from '../capabilities/gate.js';
import { CODEX_CLIENT_METHOD } from '../protocol/wire-names.js';
import { turnsListResultSchema } from '../protocol/thread-wire.js';
import { codexRejection } from '../shared/codex-error.js';
import { callFailure } from './call-failure.js';
import type { SessionState } from './state.js';

export interface RevertDeps {
  readonly state: SessionState;
  readonly request: (method: string, params: unknown) => Promise<unknown>;
  readonly capabilities?: ReleaseCapabilities | undefined;
  /** Holds the host's event loop open while codex is asked (an idle session does not). */
  readonly during: <T>(work: () => Promise<T>) => Promise<T>;
}

function refuseUnlessIdle(deps: RevertDeps): void {
  if (deps.state.closing || deps.state.ended !== undefined)
    throw codexRejection('session_closed', 'the codex session is closed');
  if (deps.state.active !== undefined) {
    throw codexRejection(
      'illegal_state_transition',
      'a codex run is active; interrupt it before reverting',
      { providerCode: 'run_active' },
    );
  }
}

async function revertTurns(deps: RevertDeps, request: unknown): Promise<RevertResult> {
  const parsed = revertRequestSchema.safeParse(request);
  if (!parsed.success) {
    throw codexRejection('invalid_request', 'the codex revert request is malformed', {
      providerCode: 'invalid_input',
    });
  }
  const { turns } = parsed.data;
  refuseUnlessIdle(deps);
  const lacking = deps.capabilities?.refusal(['session.revert']);
  if (lacking !== undefined) throw lacking;
  const threadId = deps.state.threadId;
  // one turn more than asked: the turn that is the thread's last after the revert
  const listed = turnsListResultSchema.safeParse(
    await deps.request(CODEX_CLIENT_METHOD.threadTurnsList, {
      threadId,
      limit: turns + 1,
      sortDirection: 'desc',
      itemsView: 'notLoaded',
    }),
  );
  if (!listed.success) {
    throw codexRejection('provider_contract_violation', 'codex listed the turns unreadably');
  }
  const newestFirst = listed.data.data;
  const before = newestFirst[turns - 1];
  if (before === undefined) {
    throw codexRejection('invalid_request', 'the codex thread has fewer turns than asked', {
      providerCode: 'revert_beyond_history',
      details: { turns: newestFirst.length },
    });
  }
  // a run may have been admitted while the list was read
  refuseUnlessIdle(deps);
  try {
    // the reply (the thread, its turns always empty) carries nothing the adapter needs
    await deps.request(CODEX_CLIENT_METHOD.threadRevert, { threadId, beforeTurnId: before.id });
  } catch (error) {
    callFailure('revert', error);
  }
  deps.state.noteReverted(newestFirst[turns]?.id);
  return { turns, files: 'kept' };
}

/** One revert at a time; while one is in flight no run is admitted (`busy`). */
export class ThreadReverter {
  readonly #deps: RevertDeps;
  #inFlight: Promise<unknown> | undefined;

  constructor(deps: RevertDeps) {
    this.#deps = deps;
  }

  get busy(): boolean {
    return this.#inFlight !== undefined;
  }

  revert(request: unknown): Promise<RevertResult> {
    if (this.#inFlight !== undefined) return Promise.reject(revertInProgress());
    // a host awaiting only this revert must not see its event loop end under it (ADR-0009)
    const attempt = this.#deps.during(() => revertTurns(this.#deps, request));
    const done = (): void => {
      this.#inFlight = undefined;
    };
    this.#inFlight = attempt.then(done, done);
    return attempt;
  }
}

export function revertInProgress(): ProviderRejection {
  return codexRejection('illegal_state_transition', 'a codex revert is in progress', {
    providerCode: 'run_active',
  });
}
