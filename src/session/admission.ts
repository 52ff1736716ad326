/**
 * Turn admission for one session: which `startRun` calls become a `turn/start`, what its reply
 * means, and the fencing policy of docs/adr/ADR-0005 (an unacknowledged turn/start may have
 * started a turn, so the session admits nothing further). Owns the runRef memory; what a run
 * asks of the session once admitted (steer, interrupt, its end) is `run-control.ts`.
 */
import type {
  JsonObject,
  ProviderRun,
  ProviderRunRequest,
  RunOptions,
} from '@relvo-labs/agent-provider';
import type { ReleaseCapabilities } from '../capabilities/gate.js';
import { PROVIDER_CODES, type ProviderCode } from '../protocol/provider-codes.js';
import { CODEX_CLIENT_METHOD } from '../protocol/wire-names.js';
import type { SessionConnection } from '../rpc/connection.js';
import { agentErrorOf, isAuthoritativeFailure } from '../rpc/errors.js';
import { isReplyInvalid } from '../rpc/requests.js';
import { declineServerRequest } from '../rpc/server-requests.js';
import { decodeServerRequestScope } from '../protocol/inbound.js';
import { causeTokenOf } from '../shared/cause-token.js';
import { codexError, codexRejection } from '../shared/codex-error.js';
import { unrefClock, type TimerClock } from '../shared/unref-clock.js';
import { CODEX_DEFAULT_REQUEST_TIMEOUT_MS } from '../constants.js';
import { OldestFirstMemory } from '@relvo-labs/agent-provider';
import type { SessionInteractions } from './interactions.js';
import type { NativeUserInput } from './file-refs.js';
import { nativeTurnInput } from './native-input.js';
import { CodexRun, type RunFeatures } from './run.js';
import { RunControl } from './run-control.js';
import { checkRunRequest } from './run-request.js';
import type { TurnSettings, TurnSettingsParams } from './run-options.js';
import type { SessionState } from './state.js';
import { watchRun, type StallPolicy } from './stall.js';

export type { RunFeatures } from './run.js';

/** Remembered runRefs for startRun idempotency; older ones are forgotten. */
export const MAX_REMEMBERED_RUN_REFS = 64;

/** What a runRef stands for: its startRun promise and the input it was made with. */
interface RememberedRun {
  readonly started: Promise<ProviderRun>;
  readonly fingerprint: string;
}

export interface TurnAdmissionParams {
  readonly state: SessionState;
  readonly connection: SessionConnection;
  readonly interactions: SessionInteractions | undefined;
  /** The thread's model, effort and summary as runs change and restore them (ADR-0041). */
  readonly settings: TurnSettings;
  readonly stall?: StallPolicy | undefined;
  /** What the connected release carries (ADR-0042); undefined refuses nothing. */
  readonly capabilities?: ReleaseCapabilities;
  /** Per-run opt-ins: what each new run tracks. */
  readonly runFeatures?: RunFeatures;
  /** How long a refused early interrupt waits for `turn/started` (the request deadline). */
  readonly requestTimeoutMs?: number;
  readonly clock?: TimerClock;
}

function refused(...args: Parameters<typeof codexRejection>): Promise<never> {
  return Promise.reject(codexRejection(...args));
}

function providerCodeOf(error: unknown): ProviderCode | undefined {
  const code = agentErrorOf(error)?.providerCode;
  return (PROVIDER_CODES as readonly (string | undefined)[]).includes(code)
    ? (code as ProviderCode)
    : undefined;
}

export class TurnAdmission {
  readonly #state: SessionState;
  readonly #connection: SessionConnection;
  readonly #interactions: SessionInteractions | undefined;
  readonly #settings: TurnSettings;
  readonly #stall: StallPolicy | undefined;
  readonly #capabilities: ReleaseCapabilities | undefined;
  readonly #runFeatures: RunFeatures | undefined;
  /** What each admitted run is handed as its lifecycle. */
  readonly #control: RunControl;
  /** The startRun promise per runRef: an exact retry shares it, even while turn/start is pending. */
  readonly #runsByRef = new OldestFirstMemory<string, RememberedRun>(MAX_REMEMBERED_RUN_REFS);
  /** Runs that failed before binding: their turn is interrupted once when its id shows up. */
  readonly #orphanedTurnStarts = new Set<CodexRun>();

  constructor(params: TurnAdmissionParams) {
    this.#state = params.state;
    this.#connection = params.connection;
    this.#interactions = params.interactions;
    this.#settings = params.settings;
    this.#stall = params.stall;
    this.#capabilities = params.capabilities;
    this.#runFeatures = params.runFeatures;
    this.#control = new RunControl({
      state: params.state,
      connection: params.connection,
      interactions: params.interactions,
      capabilities: params.capabilities,
      runFeatures: params.runFeatures,
      activationWaitMs: params.requestTimeoutMs ?? CODEX_DEFAULT_REQUEST_TIMEOUT_MS,
      clock: params.clock ?? unrefClock,
    });
  }

  admit(request: ProviderRunRequest): Promise<ProviderRun> {
    const state = this.#state;
    if (state.closing) return refused('session_closed', 'the codex session is closed');
    const check = checkRunRequest(request);
    if (!check.ok) return Promise.reject(check.rejection);
    const { runRef, sink, input, fingerprint, structured, options } = check.request;
    // an input check like the schema's own: refused before the run exists
    const lacking =
      structured === undefined ? undefined : this.#capabilities?.refusal(['run.structuredOutput']);
    if (lacking !== undefined) return Promise.reject(lacking);
    const existing = this.#runsByRef.get(runRef);
    if (existing !== undefined) {
      // an exact retry re-attaches; other input under the same ref never gets that run
      if (existing.fingerprint === fingerprint) return existing.started;
      return refused('command_id_conflict', 'this runRef was already used with another input', {
        providerCode: 'run_ref_conflict',
      });
    }
    if (state.fence !== undefined) {
      return refused(
        'illegal_state_transition',
        'the codex session is fenced and must be disposed',
        {
          providerCode: 'session_fenced',
        },
      );
    }
    if (state.ended !== undefined) {
      return refused('provider_unavailable', 'the codex connection has ended', {
        providerCode: 'connection_closed',
      });
    }
    if (state.active !== undefined) {
      return refused('illegal_state_transition', 'a codex run is already active in this session');
    }
    const features = this.#runFeatures;
    const native = nativeTurnInput(input, features);
    if (!native.ok) return Promise.reject(native.rejection);
    const unrestorable = this.#settings.refusal(options);
    if (unrestorable !== undefined) return Promise.reject(unrestorable);
    const run = new CodexRun({
      runRef,
      sink,
      lifecycle: this.#control,
      threadTotal: state.threadTotal,
      features,
      structured,
    });
    state.beginRun(run);
    const started = this.#startTurn(run, native.input, structured?.schema, options);
    this.#runsByRef.set(run.runRef, { started, fingerprint });
    return started;
  }

  // ---- turn/start --------------------------------------------------------------------------

  /**
   * The run's settings, or undefined once the run has ended meanwhile; a default that cannot be
   * read refuses the run before turn/start.
   */
  async #settingsFor(run: CodexRun, options: RunOptions): Promise<TurnSettingsParams | undefined> {
    try {
      const params = await this.#settings.paramsFor(options);
      return run.settled ? undefined : params;
    } catch (error) {
      this.#runsByRef.delete(run.runRef);
      this.#state.endRun(run);
      const token = causeTokenOf(error);
      throw codexRejection(
        'provider_unavailable',
        `codex did not say the thread's reasoning summary (${token})`,
        { providerCode: 'run_option_default_unread', details: { cause: token } },
      );
    }
  }

  /** codex answered `turn/start` without a usable turn id: a turn may run that no run can bind. */
  #unusableTurnStart(run: CodexRun): ProviderRun {
    this.#state.fenceSession('turn_start_unusable_id');
    run.settle({
      outcome: 'failed',
      error: codexError('provider_contract_violation', 'codex started a turn without a usable id', {
        providerCode: 'session_fenced',
      }),
    });
    return run;
  }

  async #startTurn(
    run: CodexRun,
    input: readonly NativeUserInput[],
    outputSchema: JsonObject | undefined,
    options: RunOptions,
  ): Promise<ProviderRun> {
    const state = this.#state;
    const settings = await this.#settingsFor(run, options);
    // disposed while a default was read: the run has ended, nothing is sent
    if (settings === undefined) return run;
    let turnId: string;
    try {
      const result = await this.#connection.request(CODEX_CLIENT_METHOD.turnStart, {
        threadId: state.threadId,
        input,
        // applies to this turn only (measured on 0.171.0): later turns send none
        ...(outputSchema === undefined ? {} : { outputSchema }),
        // these persist into later turns: run-options.ts sends the defaults back when needed
        ...settings,
      });
      turnId = result.turn.id;
    } catch (error) {
      if (isReplyInvalid(error)) return this.#unusableTurnStart(run);
      const authoritative = isAuthoritativeFailure(error);
      const closing = state.closing;
      // a turn may be running: another turn/start could steer it. This holds even when the
      // connection's end already failed the run (stdout EOF does not stop the process).
      if (!authoritative && !closing) state.fenceSession('turn_start_unacknowledged');
      if (run.settled) return run;
      if (authoritative) {
        // the server provably admitted nothing: forget the run, the session stays usable
        this.#runsByRef.delete(run.runRef);
        state.endRun(run);
        throw error;
      }
      // disposal owns this run: it ends interrupted once a teardown attempt succeeds (docs/behaviour.md §6.6)
      if (closing) return run;
      const token = causeTokenOf(error);
      run.settle({
        outcome: 'failed',
        error: codexError('provider_unavailable', `codex did not acknowledge the turn (${token})`, {
          providerCode: providerCodeOf(error) ?? 'connection_lost',
        }),
      });
      return run;
    }
    this.#settings.accepted(settings);
    if (run.settled) {
      // failed before binding (terminal overflow, connection end): stop the native turn once
      state.retire(turnId);
      if (run.failedBeforeBinding && !this.#orphanedTurnStarts.has(run)) {
        this.#orphanedTurnStarts.add(run);
        this.#connection
          .request(CODEX_CLIENT_METHOD.turnInterrupt, { threadId: state.threadId, turnId })
          .catch(() => undefined);
      }
      return run;
    }
    const stall = this.#stall;
    const interactions = this.#interactions;
    run.bind(
      turnId,
      stall === undefined
        ? undefined
        : (bound) =>
            watchRun(
              bound,
              stall,
              () => {
                state.fenceSession('turn_stalled_unresponsive');
              },
              () => interactions?.waitingOn(bound) ?? false,
            ),
    );
    let foreign = false;
    // in arrival order: a run ignores frames once it has settled (e.g. after a held
    // turn/completed); another turn's usage moves where the run's own is counted from
    for (const frame of state.releaseHeld()) {
      if (frame.turnId === turnId) {
        run.receive(frame);
        continue;
      }
      foreign = true;
      if (frame.method === 'thread/tokenUsage/updated') run.otherTurnUsage(frame.total);
    }
    if (foreign) state.reportForeign();
    // then the requests that came before the binding, offered as the router would have
    for (const offer of state.releaseHeldRequests()) {
      const observed = run.serverRequest(offer, decodeServerRequestScope(offer.params));
      if (interactions?.offer(observed) !== true) declineServerRequest(offer);
    }
    return run;
  }
}
