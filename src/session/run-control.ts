/**
 * What a run asks of its session after admission (the `RunLifecycle` it is given): `turn/steer`,
 * `turn/interrupt` (held for `turn/started` when codex says the turn is not active yet), and the
 * end of a run. Separate from admission (`admission.ts`), which decides whether a run exists at
 * all; this side only acts on a run that already does.
 */
import type { TurnInput } from '@relvo-labs/agent-provider';
import type { ReleaseCapabilities } from '../capabilities/gate.js';
import { CODEX_CLIENT_METHOD } from '../protocol/wire-names.js';
import type { SessionConnection } from '../rpc/connection.js';
import { wireRefusalOf } from '../rpc/errors.js';
import { codexRejection } from '../shared/codex-error.js';
import type { TimerClock } from '../shared/unref-clock.js';
import type { SessionInteractions } from './interactions.js';
import { nativeTurnInput } from './native-input.js';
import type { CodexRun, RunFeatures, RunLifecycle } from './run.js';
import { checkTurnInput } from './run-request.js';
import type { SessionState } from './state.js';

// setTimeout fires at once for delays above a signed 32-bit millisecond count
const MAX_TIMER_MS = 2_147_483_647;

export interface RunControlParams {
  readonly state: SessionState;
  readonly connection: SessionConnection;
  readonly interactions: SessionInteractions | undefined;
  readonly capabilities: ReleaseCapabilities | undefined;
  readonly runFeatures: RunFeatures | undefined;
  /** How long a refused early interrupt waits for `turn/started` (the request deadline). */
  readonly activationWaitMs: number;
  readonly clock: TimerClock;
}

export class RunControl implements RunLifecycle {
  readonly #params: RunControlParams;

  constructor(params: RunControlParams) {
    this.#params = params;
  }

  sendSteer(_run: CodexRun, turnId: string, input: TurnInput): Promise<void> {
    const { state, capabilities, connection, runFeatures } = this.#params;
    if (state.closing)
      return Promise.reject(codexRejection('session_closed', 'the codex session is closed'));
    const lacking = capabilities?.refusal(['run.steer']);
    if (lacking !== undefined) return Promise.reject(lacking);
    const checked = checkTurnInput(input);
    if (!checked.ok) return Promise.reject(checked.rejection);
    const native = nativeTurnInput(checked.input, runFeatures);
    if (!native.ok) return Promise.reject(native.rejection);
    return connection
      .request(CODEX_CLIENT_METHOD.turnSteer, {
        threadId: state.threadId,
        expectedTurnId: turnId,
        input: native.input,
      })
      .then(() => undefined);
  }

  sendInterrupt(run: CodexRun): Promise<void> {
    const { state, connection } = this.#params;
    const turnId = run.turnId;
    // disposal ends the run interrupted; there is nothing left to ask codex
    if (turnId === undefined || state.closing) return Promise.resolve();
    const send = (): Promise<void> =>
      connection
        .request(CODEX_CLIENT_METHOD.turnInterrupt, { threadId: state.threadId, turnId })
        .then(() => undefined);
    const activeAtSend = run.active;
    return send().catch(async (error: unknown) => {
      // a persisted thread's turn is not active until turn/started: sent once more then
      if (activeAtSend || wireRefusalOf(error) !== 'turn_not_active_yet') throw error;
      if (await this.#activation(run, error)) await send();
    });
  }

  /** `turn/started` (true) or the run's settlement (false), within the request deadline. */
  #activation(run: CodexRun, refusal: unknown): Promise<boolean> {
    const { clock, activationWaitMs: ms } = this.#params;
    // a disabled request deadline leaves the run's settlement as the bound, as for any request
    if (!(ms > 0 && ms <= MAX_TIMER_MS)) return run.activation;
    let timer: unknown;
    const deadline = new Promise<never>((_, reject) => {
      timer = clock.setTimeout(() => {
        reject(refusal instanceof Error ? refusal : new Error('turn not active'));
      }, ms);
    });
    return Promise.race([run.activation, deadline]).finally(() => {
      clock.clearTimeout(timer);
    });
  }

  beginInterrupt(run: CodexRun): void {
    this.#params.interactions?.retireRun(run);
  }

  finalize(run: CodexRun): void {
    this.#params.state.endRun(run);
    this.#params.interactions?.retireRun(run);
  }
}
