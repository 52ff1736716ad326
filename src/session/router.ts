/**
 * Routing of one session's inbound traffic, in the order the connection delivers it:
 * notifications through the correlator to the active run, server requests to the interaction
 * bridges, drops and client diagnostics onto the session sink, and the connection's end or
 * fence onto the session's state and its active run.
 */
import type { FenceReason, DropReason } from '../protocol/vocabulary.js';
import { CODEX_NOTIFICATION } from '../protocol/vocabulary.js';
import { serverRequestResolvedSchema } from '../protocol/wire.js';
import type { RpcDiagnostic, RpcEnd, ServerRequestOffer } from '../rpc/client.js';
import type { InboundTraffic } from '../rpc/connection.js';
import { codexError } from '../shared/codex-error.js';
import { applyTurnFrame } from './apply.js';
import { threadTotalOf } from './run-usage.js';
import type { TurnCorrelator } from './correlator.js';
import { connectionEnded, frameDropped, fromRpc } from './diagnostics.js';
import type { SessionInteractions } from './interactions.js';
import type { SessionState } from './state.js';

export interface InboundRouterParams {
  readonly state: SessionState;
  readonly correlator: TurnCorrelator;
  readonly interactions: SessionInteractions | undefined;
}

export class InboundRouter implements InboundTraffic {
  readonly #state: SessionState;
  readonly #correlator: TurnCorrelator;
  readonly #interactions: SessionInteractions | undefined;

  constructor(params: InboundRouterParams) {
    this.#state = params.state;
    this.#correlator = params.correlator;
    this.#interactions = params.interactions;
  }

  serverRequest(offer: ServerRequestOffer): boolean {
    // codex spoke: the stall count restarts (a pending answer then pauses it)
    const run = this.#state.active;
    run?.watchdog?.frame(offer.method, undefined);
    const observed =
      run?.heldInvocations?.observe(offer, (event) => {
        run.emit(event);
      }) ?? offer;
    return this.#interactions?.offer(observed) ?? false;
  }

  notification(method: string, params: unknown): void {
    if (method === CODEX_NOTIFICATION.serverRequestResolved) {
      this.#serverRequestResolved(params);
      return;
    }
    const decision = this.#correlator.route(method, params);
    // the thread total moves on whoever the update belongs to; runs measure from it
    if (method === CODEX_NOTIFICATION.tokenUsageUpdated) {
      const total = threadTotalOf(params, this.#state.threadId);
      if (total !== undefined) {
        this.#state.threadTotal = total;
        // an earlier (retired or replayed) turn's figure predates the active run
        if (decision.kind === 'foreign') this.#state.active?.usage.rebase(total);
      }
    }
    switch (decision.kind) {
      case 'ignore':
      case 'buffered':
        return;
      case 'foreign':
        this.#state.reportForeign();
        return;
      case 'terminal_overflow':
        this.#terminalOverflow();
        return;
      case 'apply': {
        const run = this.#state.active;
        if (run === undefined) return;
        run.watchdog?.frame(method, params);
        applyTurnFrame(run, method, params);
        return;
      }
    }
  }

  drop(reason: DropReason): void {
    this.#state.emit(frameDropped(reason));
  }

  diagnostic(diagnostic: RpcDiagnostic): void {
    this.#state.emit(fromRpc(diagnostic));
  }

  end(end: RpcEnd): void {
    const state = this.#state;
    if (state.ended !== undefined) return;
    state.ended = end;
    this.#interactions?.retireAll('stream_end');
    if (state.closing) return;
    const token = end.kind === 'eof' ? 'eof' : end.causeToken;
    state.emit(connectionEnded(end.kind, token));
    // EOF never implies success or interruption
    state.active?.settle({
      outcome: 'failed',
      error: codexError('provider_unavailable', `codex connection ended (${token})`, {
        providerCode: 'connection_lost',
      }),
    });
  }

  /** The client's server-request ledger overflowed: no run can be trusted on this connection. */
  fence(reason: FenceReason): void {
    this.#state.fenceSession(reason);
    this.#state.active?.settle({
      outcome: 'failed',
      error: codexError(
        'provider_contract_violation',
        'too many codex server requests on one connection',
        { providerCode: 'session_fenced' },
      ),
    });
  }

  #terminalOverflow(): void {
    const run = this.#state.active;
    this.#state.fenceSession('unattributable_terminal_overflow');
    if (run === undefined || run.settled) return;
    run.failedBeforeBinding = true;
    run.settle({
      outcome: 'failed',
      error: codexError(
        'provider_contract_violation',
        'too many codex turn completions arrived before the turn was bound',
        { providerCode: 'pre_binding_terminal_overflow' },
      ),
    });
  }

  #serverRequestResolved(params: unknown): void {
    const parsed = serverRequestResolvedSchema.safeParse(params);
    if (!parsed.success) return;
    if (parsed.data.threadId !== this.#state.threadId) {
      this.#state.reportForeign();
      return;
    }
    this.#interactions?.resolved(parsed.data.requestId);
  }
}
