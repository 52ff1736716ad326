import {
  isProviderRejection,
  OldestFirstMemory,
  SPI_LIMITS,
  type AgentError,
  type AgentInteraction,
  type InteractionRequest,
  type InteractionResponse,
  type InteractionSettlement,
  type ProviderSession,
  type SettlementOutcome,
  type ToolOutput,
} from '@relvo-labs/agent-provider';
import { isoAt, type RuntimeClock } from '../clock.js';
import { rejection } from '../errors.js';
import type { IdFactory } from '../ids.js';
import {
  armExpiry,
  expiredError,
  expiryAnswer,
  handOffExpiry,
  type ArmedExpiry,
  type ExpiryPolicy,
} from './expiry.js';
import {
  ANSWER_OUTCOME_UNKNOWN,
  answerAfterSettlement,
  anotherAnswerInFlight,
  answerMisfit,
  parseAnswer,
  sameAnswer,
  unknownInteraction,
} from './answers.js';
import { contractDiagnostic } from './intake.js';
import { providerCallError } from './provider-call.js';
import { callBoundFunction, type HostToolFunctions } from './host-functions.js';
import type { SessionLog } from './log.js';

/** What the lifecycle needs of the run an interaction belongs to. */
export interface InteractionRun {
  readonly runId: string;
  readonly turnId: string;
  readonly providerSession: ProviderSession;
  readonly finished: boolean;
  interrupt(reason?: string): Promise<void>;
  /** One of its interactions settled; `open` of them are still unsettled. */
  interactionSettled(open: number): void;
}

/** One interaction, from its request to its settlement; never leaves this module. */
interface InteractionRecord {
  readonly interactionId: string;
  readonly providerRef: string;
  readonly request: InteractionRequest;
  readonly requestedAt: string;
  readonly run: InteractionRun;
  status: 'pending' | 'delivering' | 'settled';
  /** The answer being recorded or delivered (status `delivering`). */
  inFlight?: InteractionResponse;
  /** The answer in flight is durable and handed to the provider. */
  handed?: boolean;
  /** An answer whose delivery failed without a definite refusal: the provider may have it. */
  uncertain?: InteractionResponse;
  delivery?: Promise<void>;
  settlement?: InteractionSettlement;
  expiry?: ArmedExpiry;
  /** A bound host function's call, aborted once the interaction settles. */
  call?: AbortController;
}

/** Read anew after an await (the record may have settled meanwhile). */
function delivering(record: InteractionRecord): boolean {
  return record.status === 'delivering';
}

/** A run's provider refs: the open ones, and a bounded memory of settled ones (duplicates). */
interface RunRefs {
  readonly open: Map<string, InteractionRecord>;
  readonly settled: OldestFirstMemory<string, true>;
}

function newRunRefs(): RunRefs {
  return { open: new Map(), settled: new OldestFirstMemory(SPI_LIMITS.rememberedSettlements) };
}

export interface InteractionDeps {
  readonly sessionId: string;
  readonly log: SessionLog;
  readonly clock: RuntimeClock;
  readonly ids: IdFactory;
  /** Host functions that answer `tool_call` interactions of their tool (host-functions.ts). */
  readonly toolFunctions?: HostToolFunctions;
}

/**
 * The one owner of a session's interactions: raise, withdraw, deliver, settle, cancel at run end
 * and expiry. Unsettled ones are kept until they settle; the last `rememberedSettlements`
 * settled ones stay answerable as "already settled" (an exact retry of the applied answer is a
 * no-op), older ones are forgotten.
 */
export class InteractionLifecycle {
  readonly #deps: InteractionDeps;
  /** Pending or delivering, in the order they were raised. */
  readonly #open = new Map<string, InteractionRecord>();
  readonly #settled = new OldestFirstMemory<string, InteractionRecord>(
    SPI_LIMITS.rememberedSettlements,
  );
  readonly #runs = new Map<string, RunRefs>();

  constructor(deps: InteractionDeps) {
    this.#deps = deps;
  }

  /** Raises a request of `run`; false (and a contract diagnostic) for a repeated provider ref. */
  raise(
    run: InteractionRun,
    providerRef: string,
    request: InteractionRequest,
    policy: ExpiryPolicy | undefined,
  ): boolean {
    const { log, clock, ids } = this.#deps;
    const refs = this.#runs.get(run.runId) ?? newRunRefs();
    this.#runs.set(run.runId, refs);
    if (refs.open.has(providerRef) || refs.settled.has(providerRef)) {
      log.append(contractDiagnostic('duplicate_provider_ref'), run.runId);
      return false;
    }
    const record: InteractionRecord = {
      interactionId: ids('int'),
      providerRef,
      request,
      requestedAt: isoAt(clock),
      run,
      status: 'pending',
    };
    refs.open.set(providerRef, record);
    this.#open.set(record.interactionId, record);
    if (policy !== undefined) {
      record.expiry = armExpiry(clock, policy, () => {
        this.#expire(record, policy);
      });
    }
    const { interactionId, expiry } = record;
    const expiresAt = expiry === undefined ? {} : { expiresAt: expiry.expiresAt };
    const { turnId, runId } = run;
    log.append(
      { type: 'interaction.requested', interactionId, turnId, request, ...expiresAt },
      runId,
    );
    if (request.kind === 'tool_call') {
      const call = new AbortController();
      const answer = (output: ToolOutput): Promise<void> =>
        this.respond(interactionId, { kind: 'tool_call', output });
      const { toolFunctions, sessionId } = this.#deps;
      if (callBoundFunction(toolFunctions, sessionId, request, answer, call.signal))
        record.call = call;
    }
    return true;
  }

  /** Disregarded when never raised, already settled, or an answer is already with the provider. */
  withdraw(run: InteractionRun, providerRef: string, outcome: 'withdrawn' | 'cancelled'): void {
    const record = this.#runs.get(run.runId)?.open.get(providerRef);
    if (record?.status === 'pending') this.#settle(record, outcome);
  }

  /**
   * At run end: an answer already with the provider counts as responded, one whose delivery
   * failed uncertainly as responded with its outcome unknown, the rest (an answer still being
   * recorded included: it never reaches the provider) as cancelled.
   */
  endRun(run: InteractionRun): void {
    const refs = this.#runs.get(run.runId);
    if (refs === undefined) return;
    for (const record of [...refs.open.values()]) {
      if (
        record.status === 'delivering' &&
        record.handed === true &&
        record.inFlight !== undefined
      ) {
        this.#settle(record, 'responded', record.inFlight);
      } else if (record.uncertain !== undefined) {
        this.#settle(record, 'responded', record.uncertain, ANSWER_OUTCOME_UNKNOWN);
      } else {
        this.#settle(record, 'cancelled');
      }
    }
    this.#runs.delete(run.runId);
  }

  pending(): AgentInteraction[] {
    return [...this.#open.values()].map((r) => ({
      interactionId: r.interactionId,
      sessionId: this.#deps.sessionId,
      turnId: r.run.turnId,
      runId: r.run.runId,
      status: 'pending',
      request: r.request,
      requestedAt: r.requestedAt,
      ...(r.expiry === undefined ? {} : { expiresAt: r.expiry.expiresAt }),
    }));
  }

  /**
   * Validated against the request, recorded durably, then handed to the provider; the
   * settlement is durable before it resolves.
   */
  respond(interactionId: string, response: InteractionResponse): Promise<void> {
    try {
      const record = this.#open.get(interactionId) ?? this.#settled.get(interactionId);
      if (record === undefined) throw unknownInteraction();
      const answer = parseAnswer(response);
      if (record.status === 'settled') {
        const refusal = answerAfterSettlement(record.settlement, answer);
        if (refusal !== undefined) throw refusal;
        return Promise.resolve();
      }
      if (record.status === 'delivering') {
        const joined = record.delivery;
        if (joined !== undefined && sameAnswer(answer, record.inFlight)) return joined;
        throw anotherAnswerInFlight();
      }
      // stopped here: a response that does not fit its request never reaches the provider
      const misfit = answerMisfit(record.request, answer);
      if (misfit !== undefined) throw misfit;
      record.status = 'delivering';
      record.inFlight = answer;
      record.delivery = this.#deliver(record, answer);
      return record.delivery;
    } catch (error) {
      return rejection(error);
    }
  }

  /**
   * Recorded, durable (on PostgreSQL: under the lease, checked in the append's transaction), and
   * only then handed to the provider: a host that lost its lease or its store hands over nothing.
   */
  async #deliver(record: InteractionRecord, answer: InteractionResponse): Promise<void> {
    const { log } = this.#deps;
    const { interactionId } = record;
    log.append({ type: 'interaction.answered', interactionId, response: answer }, record.run.runId);
    try {
      await log.durable();
    } catch (error) {
      this.#undeliver(record);
      throw error;
    }
    // the run ended while the answer was being recorded: it never reached the provider
    if (!delivering(record)) {
      delete record.delivery;
      throw answerAfterSettlement(record.settlement, answer) ?? anotherAnswerInFlight();
    }
    record.handed = true;
    try {
      await record.run.providerSession.respondToInteraction(record.providerRef, answer);
    } catch (error) {
      // only a refusal is definite; otherwise the provider may have applied it
      if (!isProviderRejection(error)) record.uncertain = answer;
      this.#undeliver(record);
      throw providerCallError(error, 'response');
    }
    if (delivering(record)) this.#settle(record, 'responded', answer);
    await log.durable();
  }

  #undeliver(record: InteractionRecord): void {
    if (record.status === 'delivering') {
      record.status = 'pending';
      delete record.inFlight;
    }
    record.handed = false;
    delete record.delivery;
  }

  /**
   * A request nobody answered in time: settled `expired`, then the provider gets a denial
   * (`decline`, approvals) or the run is interrupted. An answer already in flight wins.
   */
  #expire(record: InteractionRecord, policy: ExpiryPolicy): void {
    if (record.status === 'delivering') {
      // should the answer in flight fail, the request is still overdue
      record.delivery?.catch(() => {
        this.#expire(record, policy);
      });
      return;
    }
    if (record.run.finished || record.status !== 'pending') return;
    const answer = expiryAnswer(policy, record.request);
    const action = answer === undefined ? 'cancelled' : 'declined';
    this.#settle(record, 'expired', undefined, expiredError(action, policy.afterMs));
    handOffExpiry(record.run, record.providerRef, answer);
  }

  #settle(
    record: InteractionRecord,
    outcome: SettlementOutcome,
    response?: InteractionResponse,
    error?: AgentError,
  ): void {
    record.expiry?.cancel();
    record.call?.abort();
    const settlement: InteractionSettlement = { outcome, settledAt: isoAt(this.#deps.clock) };
    if (response !== undefined) settlement.response = response;
    if (error !== undefined) settlement.error = error;
    record.status = 'settled';
    record.settlement = settlement;
    delete record.inFlight;
    this.#open.delete(record.interactionId);
    this.#settled.set(record.interactionId, record);
    const refs = this.#runs.get(record.run.runId);
    refs?.open.delete(record.providerRef);
    refs?.settled.set(record.providerRef, true);
    const { interactionId } = record;
    this.#deps.log.append(
      { type: 'interaction.settled', interactionId, settlement },
      record.run.runId,
    );
    record.run.interactionSettled(refs?.open.size ?? 0);
  }
}
