/**
 * Routing of one session's inbound traffic, decoded at the edge, in the order the connection
 * delivers it: notifications through the correlator to the active run (`run.receive`), server
 * requests to the interaction bridges, drops and client diagnostics onto the session sink, and
 * the connection's end or fence onto the session's state and its active run.
 */
import type { InboundNotification, InboundOf } from '../protocol/inbound.js';
import { decodeServerRequestScope } from '../protocol/inbound.js';
import type { DropReason } from '../transport/types.js';
import type { RpcDiagnostic, RpcEnd, RpcFenceReason, ServerRequestOffer } from '../rpc/client.js';
import type { InboundTraffic } from '../rpc/connection.js';
import { codexError } from '../shared/codex-error.js';
import type { RouteDecision } from './correlator.js';
import { connectionEnded, frameDropped, fromRpc } from './diagnostics.js';
import type { SessionInteractions } from './interactions.js';
import type { SessionState } from './state.js';

/** Receives the account's limits as codex updates them; they belong to no thread or turn. */
export type RateLimitsUpdateHandler = (update: InboundOf<'account/rateLimits/updated'>) => void;

export interface InboundRouterParams {
  readonly state: SessionState;
  readonly interactions: SessionInteractions | undefined;
  readonly onRateLimits?: RateLimitsUpdateHandler;
}

export class InboundRouter implements InboundTraffic {
  readonly #state: SessionState;
  readonly #interactions: SessionInteractions | undefined;
  readonly #onRateLimits: RateLimitsUpdateHandler | undefined;

  constructor(params: InboundRouterParams) {
    this.#state = params.state;
    this.#interactions = params.interactions;
    this.#onRateLimits = params.onRateLimits;
  }

  readonly onServerRequest = (offer: ServerRequestOffer): boolean => {
    // codex spoke: the stall count restarts (a pending answer then pauses it)
    const run = this.#state.active;
    const scope = decodeServerRequestScope(offer.params);
    // the run's turn/start reply may be in the same read and not yet taken: offered once bound
    if (this.#interactions !== undefined && this.#state.holdRequest(offer, scope)) return true;
    const observed = run?.serverRequest(offer, scope) ?? offer;
    return this.#interactions?.offer(observed) ?? false;
  };

  readonly onNotification = (frame: InboundNotification): void => {
    if (frame.method === 'serverRequest/resolved') {
      this.#serverRequestResolved(frame);
      return;
    }
    if (frame.method === 'account/rateLimits/updated') {
      this.#onRateLimits?.(frame);
      return;
    }
    const decision = this.#state.route(frame);
    if (frame.method === 'thread/tokenUsage/updated') this.usage(frame, decision);
    switch (decision.kind) {
      case 'ignore':
      case 'buffered':
        return;
      case 'foreign':
        this.#state.reportForeign();
        return;
      case 'terminal_overflow':
        this.#preBindingOverflow('unattributable_terminal_overflow');
        return;
      case 'output_overflow':
        this.#preBindingOverflow('pre_binding_overflow');
        return;
      case 'apply':
        this.#state.active?.receive(frame);
        return;
    }
  };

  /**
   * The one place a `thread/tokenUsage/updated` moves the thread's total, whoever the update
   * belongs to; runs measure from it. Its own turn's update reaches the run through `receive`,
   * another turn's is never the run's. Also called with the update heard before the session.
   */
  usage(frame: InboundOf<'thread/tokenUsage/updated'>, decision?: RouteDecision): void {
    if (frame.threadId !== this.#state.threadId) return;
    this.#state.noteThreadTotal(frame.total);
    if (decision?.kind === 'foreign') this.#state.active?.otherTurnUsage(frame.total);
  }

  readonly onDrop = (reason: DropReason): void => {
    this.#state.emit(frameDropped(reason));
  };

  readonly onDiagnostic = (diagnostic: RpcDiagnostic): void => {
    this.#state.emit(fromRpc(diagnostic));
  };

  readonly onEnd = (end: RpcEnd): void => {
    const state = this.#state;
    if (!state.noteEnd(end)) return;
    this.#interactions?.retireAll('stream_end');
    if (state.closing) return;
    const token = end.kind === 'eof' ? 'eof' : end.causeToken;
    state.emit(connectionEnded(end.kind, token));
    // EOF never implies success or interruption
    state.active?.settle(
      {
        outcome: 'failed',
        error: codexError('provider_unavailable', `codex connection ended (${token})`, {
          providerCode: 'connection_lost',
        }),
      },
      'connection_end',
    );
  };

  /** The client's server-request ledger overflowed: no run can be trusted on this connection. */
  readonly onFence = (reason: RpcFenceReason): void => {
    this.#state.fenceSession(reason);
    this.#state.active?.settle({
      outcome: 'failed',
      error: codexError(
        'provider_contract_violation',
        'too many codex server requests on one connection',
        { providerCode: 'session_fenced' },
      ),
    });
  };

  /** More held before the turn id is known than a run may hold: the run fails, typed. */
  #preBindingOverflow(reason: 'unattributable_terminal_overflow' | 'pre_binding_overflow'): void {
    const run = this.#state.active;
    this.#state.fenceSession(reason);
    const terminal = reason === 'unattributable_terminal_overflow';
    run?.failBeforeBinding({
      outcome: 'failed',
      error: codexError(
        'provider_contract_violation',
        terminal
          ? 'too many codex turn completions arrived before the turn was bound'
          : 'more codex output arrived before the turn was bound than a run may hold',
        { providerCode: terminal ? 'pre_binding_terminal_overflow' : 'pre_binding_overflow' },
      ),
    });
  }

  #serverRequestResolved(frame: InboundOf<'serverRequest/resolved'>): void {
    if (frame.threadId !== this.#state.threadId) {
      this.#state.reportForeign();
      return;
    }
    this.#interactions?.resolved(frame.requestId);
  }
}
