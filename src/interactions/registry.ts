/**
 * The per-session interaction registry (docs/behaviour.md §9): admits bridged server requests as
 * neutral interactions on the owning run, settles each one exactly once, and retires or
 * withdraws what is left. Refs are minted here and never derived from native ids.
 */
import { randomUUID } from 'node:crypto';
import type { ProviderEventSink } from '@relvo-labs/agent-provider';
import {
  CODEX_BRIDGED_APPROVAL,
  CODEX_BRIDGED_ELICITATION,
  CODEX_BRIDGED_FILE_CHANGE,
  CODEX_BRIDGED_PERMISSIONS,
  CODEX_BRIDGED_QUESTION,
  CODEX_BRIDGED_TOOL_CALL,
  JSON_RPC_ERROR,
} from '../protocol/wire-names.js';
import { requestIdKey, type CodexRequestId } from '../protocol/wire.js';
import type { ServerRequestOffer } from '../rpc/server-requests.js';
import { callSafely } from '../shared/call-safely.js';
import { OldestFirstMemory, SPI_LIMITS } from '@relvo-labs/agent-provider';
import type { BridgedInteraction, RefusalToken } from './bridged.js';
import { translateBridged, type BridgeContext } from './bridges.js';
import type { InteractionCorrelation } from './native-approval.js';
import { rejection, SETTLEMENT_MESSAGES } from './settlement.js';

/** docs/behaviour.md §9.4 step 2: why no run owns an interaction request. */
// prettier-ignore
export type OwnerRefusalReason =
  | 'no_active_run' | 'run_not_bound' | 'run_concluded' | 'run_interrupting' | 'session_closing'
  | 'session_fenced' | 'correlation_mismatch';

/** What the interaction registry reports as a diagnostic. */
// prettier-ignore
export type RegistryDiagnosticCode =
  | 'interaction_refused' | 'interaction_not_owned' | 'interactions_full'
  | 'interaction_request_reused' | 'interaction_reply_failed';

/** Session-wide retirement of interactions: everything is released, nothing further admitted. */
export type SessionRetirementCause = 'dispose' | 'stream_end';

/** The run that owns an interaction; its sink receives `interaction.requested` / `.withdrawn`. */
export interface InteractionOwner {
  readonly sink: ProviderEventSink;
}

export type OwnerResolution<O> =
  | { readonly ok: true; readonly owner: O }
  | { readonly ok: false; readonly reason: OwnerRefusalReason };

/** Bounded tokens only: never a native id, prompt, command or answer. */
export interface RegistryDiagnostic {
  readonly level: 'debug' | 'info' | 'warning';
  readonly code: RegistryDiagnosticCode;
  readonly token?: RefusalToken | OwnerRefusalReason;
}

export const MAX_TRACKED_INTERACTIONS = 256;
/** How many answered refs of ended runs are remembered for idempotent redelivery. */
export const MAX_REMEMBERED_ANSWERS = SPI_LIMITS.rememberedSettlements;

export interface InteractionRegistryOptions<O extends InteractionOwner> extends BridgeContext {
  readonly bridges: {
    readonly approvals: boolean;
    readonly questions: boolean;
    readonly fileChanges?: boolean;
    readonly permissions?: boolean;
    readonly elicitations?: boolean;
  };
  /** The session's owner check (docs/behaviour.md §9.4 step 2). */
  readonly resolveOwner: (correlation: InteractionCorrelation) => OwnerResolution<O>;
  readonly onDiagnostic?: (diagnostic: RegistryDiagnostic) => void;
}

export type WithdrawOutcome = 'ignored' | 'confirmed' | 'withdrawn' | 'duplicate';

interface Entry<O> {
  readonly kind: BridgedInteraction['request']['kind'];
  readonly ref: string;
  readonly interaction: BridgedInteraction;
  readonly owner: O;
  readonly offer: ServerRequestOffer;
  readonly requestKey: string;
  readonly threadId: string;
  /** Set when the single native reply has been consumed. */
  appliedKey: string | undefined;
  confirmed: boolean;
}

export class InteractionRegistry<O extends InteractionOwner> {
  readonly #nonce = randomUUID();
  #counter = 0;
  #closedBy: SessionRetirementCause | undefined;
  readonly #byRef = new Map<string, Entry<O>>();
  readonly #byRequest = new Map<string, Entry<O>>();
  /** Answered entries of ended runs, kept (FIFO-bounded) so an exact retry stays a no-op. */
  readonly #answeredRetired = new OldestFirstMemory<string, Entry<O>>(MAX_REMEMBERED_ANSWERS);
  readonly #options: InteractionRegistryOptions<O>;

  constructor(options: InteractionRegistryOptions<O>) {
    this.#options = options;
  }

  get size(): number {
    return this.#byRef.size;
  }

  /** True when this method is bridged by its own flag. */
  bridges(method: string): boolean {
    if (method === CODEX_BRIDGED_APPROVAL) return this.#options.bridges.approvals;
    if (method === CODEX_BRIDGED_QUESTION) return this.#options.bridges.questions;
    if (method === CODEX_BRIDGED_FILE_CHANGE)
      return this.#options.bridges.fileChanges === true && this.#options.fileChanges !== undefined;
    if (method === CODEX_BRIDGED_PERMISSIONS)
      return (
        this.#options.bridges.permissions === true && this.#options.workspaceRoot !== undefined
      );
    if (method === CODEX_BRIDGED_ELICITATION)
      return (
        this.#options.bridges.elicitations === true && this.#options.workspaceRoot !== undefined
      );
    if (method === CODEX_BRIDGED_TOOL_CALL) return this.#options.hostTools !== undefined;
    return false;
  }

  /**
   * The client's server-request handler. Returns false for a method that is not bridged (the
   * client then answers -32601); otherwise it answers or admits the request itself.
   */
  handleServerRequest(offer: ServerRequestOffer): boolean {
    if (!this.bridges(offer.method)) return false;
    const requestKey = requestIdKey(offer.id);
    if (this.#byRequest.has(requestKey)) {
      // The client never offers a remembered id; answering would settle the first request.
      this.#diagnose({ level: 'warning', code: 'interaction_request_reused' });
      return true;
    }

    // Step 1: strict parse and translation.
    const translated = translateBridged(offer, this.#options);
    if (!translated.ok) {
      if (translated.reply !== undefined) offer.respond(translated.reply);
      else
        offer.reject(
          JSON_RPC_ERROR.invalidParams,
          `request cannot be represented faithfully (${translated.token})`,
        );
      this.#diagnose({ level: 'warning', code: 'interaction_refused', token: translated.token });
      return true;
    }

    // Step 2: the owner check.
    const resolution: OwnerResolution<O> =
      this.#closedBy !== undefined
        ? { ok: false, reason: 'session_closing' }
        : this.#options.resolveOwner(translated.interaction.correlation);
    if (!resolution.ok) {
      offer.reject(JSON_RPC_ERROR.invalidRequest, 'no active turn owns the request');
      this.#diagnose({ level: 'warning', code: 'interaction_not_owned', token: resolution.reason });
      return true;
    }

    // Step 3: the bound.
    if (this.#byRef.size >= MAX_TRACKED_INTERACTIONS) {
      offer.reject(JSON_RPC_ERROR.invalidRequest, 'too many outstanding interactions');
      this.#diagnose({ level: 'warning', code: 'interactions_full' });
      return true;
    }

    // Step 4: track, then raise on the run's sink.
    this.#counter += 1;
    const interaction = translated.interaction;
    const kind = interaction.request.kind;
    const entry: Entry<O> = {
      kind,
      ref: `${kind === 'question_set' ? 'question' : kind}-${this.#nonce}-${this.#counter}`,
      interaction,
      owner: resolution.owner,
      offer,
      requestKey,
      threadId: interaction.correlation.threadId,
      appliedKey: undefined,
      confirmed: false,
    };
    this.#byRef.set(entry.ref, entry);
    this.#byRequest.set(requestKey, entry);
    entry.owner.sink.emit({
      payload: {
        type: 'interaction.requested',
        providerRef: entry.ref,
        request: interaction.request,
      },
    });
    return true;
  }

  /**
   * `respondToInteraction` for one ref. Everything is validated before the single settlement is
   * consumed; the body is synchronous, so concurrent duplicates settle strictly one after another.
   */
  respond(providerRef: string, response: unknown): Promise<void> {
    // The executor runs synchronously; a throw becomes the rejection, never a synchronous throw.
    return new Promise<void>((resolve) => {
      this.#settle(providerRef, response);
      resolve();
    });
  }

  #settle(providerRef: string, response: unknown): void {
    const entry = this.#byRef.get(providerRef) ?? this.#answeredRetired.get(providerRef);
    if (entry === undefined) throw rejection('unknown_interaction', SETTLEMENT_MESSAGES.unknown);
    const plan = entry.interaction.settle(response);
    if (!plan.ok) throw plan.rejection;
    if (entry.appliedKey !== undefined) {
      if (entry.appliedKey === plan.appliedKey) return;
      throw rejection('interaction_already_settled', SETTLEMENT_MESSAGES.alreadySettled);
    }
    if (!this.#byRef.has(providerRef)) {
      // retired entries are only ever answered ones (see #retire); this cannot apply anything
      throw rejection('unknown_interaction', SETTLEMENT_MESSAGES.unknown);
    }
    entry.appliedKey = plan.appliedKey;
    if (!entry.offer.respond(plan.nativeResult)) {
      // The native callback is gone (connection ended or fenced): nothing was delivered.
      this.#forget(entry);
      this.#diagnose({ level: 'warning', code: 'interaction_reply_failed' });
      throw rejection('unknown_interaction', SETTLEMENT_MESSAGES.unknown);
    }
  }

  /**
   * `serverRequest/resolved`: a confirmation for an answered entry, a withdrawal for an
   * unanswered one (docs/behaviour.md §9.8). Another thread or an untracked id is ignored.
   */
  withdraw(requestId: CodexRequestId, threadId?: string): WithdrawOutcome {
    const entry = this.#byRequest.get(requestIdKey(requestId));
    if (entry === undefined) return 'ignored';
    if (threadId !== undefined && threadId !== entry.threadId) return 'ignored';
    if (entry.appliedKey !== undefined) {
      if (entry.confirmed) return 'duplicate';
      entry.confirmed = true;
      entry.offer.retire();
      return 'confirmed';
    }
    this.#forget(entry);
    entry.offer.retire();
    entry.owner.sink.emit({ payload: { type: 'interaction.withdrawn', providerRef: entry.ref } });
    return 'withdrawn';
  }

  /** Whether one of the owner's requests still waits for the host's answer. */
  hasUnanswered(owner: O): boolean {
    for (const entry of this.#byRef.values()) {
      if (entry.owner === owner && entry.appliedKey === undefined) return true;
    }
    return false;
  }

  /** A run finalised or began interrupting: release its waits and drop its entries. */
  retireRun(owner: O): number {
    return this.#retire([...this.#byRef.values()].filter((entry) => entry.owner === owner));
  }

  /** Why the registry stopped admitting, once it has. */
  get closedBy(): SessionRetirementCause | undefined {
    return this.#closedBy;
  }

  /**
   * Dispose or stream end: release every wait and admit nothing further. After stream end the
   * reply is best effort (the client refuses to write), but the entries go in every case.
   */
  retireAll(cause: SessionRetirementCause): number {
    this.#closedBy ??= cause;
    return this.#retire([...this.#byRef.values()], cause === 'dispose');
  }

  #retire(entries: readonly Entry<O>[], abandoning = false): number {
    for (const entry of entries) {
      // Removed first, so a reply that re-enters the registry finds nothing to settle.
      this.#forget(entry);
      if (entry.appliedKey !== undefined) {
        // An answered entry keeps answering the runtime's exact retry with a no-op (docs/spi.md §6)
        // and a conflicting answer with interaction_already_settled; it can apply nothing.
        this.#answeredRetired.set(entry.ref, entry);
        continue;
      }
      entry.appliedKey = 'retired';
      const { release, abandon } = entry.interaction;
      entry.offer.respond(abandoning && abandon !== undefined ? abandon : release);
      // the host must see the request end too, not infer it from the run's completion
      entry.owner.sink.emit({ payload: { type: 'interaction.withdrawn', providerRef: entry.ref } });
    }
    return entries.length;
  }

  #forget(entry: Entry<O>): void {
    this.#byRef.delete(entry.ref);
    this.#byRequest.delete(entry.requestKey);
  }

  // A diagnostic observer must never change a protocol outcome.
  #diagnose(diagnostic: RegistryDiagnostic): void {
    callSafely(() => this.#options.onDiagnostic?.(diagnostic));
  }
}

export type { ServerRequestOffer };
