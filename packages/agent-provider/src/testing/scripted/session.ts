import { agentError, ProviderRejection } from '../../errors.js';
import type {
  ProviderEventSink,
  ProviderRun,
  ProviderRunRequest,
  ProviderSession,
} from '../../interfaces.js';
import { canonicalJson, captureJson } from '../../json.js';
import { checkResponseAgainstRequest } from '../../check-response.js';
import type { InteractionResponse } from '../../schemas/interaction.js';
import type { ProviderRecoveryRecord } from '../../schemas/recovery.js';
import {
  historyRequestSchema,
  revertRequestSchema,
  type HistoryPage,
  type HistoryRequest,
  type RevertRequest,
  type RevertResult,
} from '../../schemas/session-ops.js';
import { runOptionsSchema, turnInputSchema, type RunOptions } from '../../schemas/turn.js';
import { WIRE_VERSION } from '../../wire.js';
import { ScriptedRun, type ScriptedRunHost } from './run.js';
import type { ScriptStep } from './steps.js';

export const SCRIPTED_DISPOSE_REASON = 'provider session disposed';

/** What a session needs from its provider: scripts, interrupt mode and the controller's ledgers. */
export interface ScriptedSessionHost {
  readonly providerId: string;
  readonly providerVersion: string;
  readonly interruptMode: ScriptedRunHost['interruptMode'];
  readonly supportsRecovery: boolean;
  readonly supportsSteer: boolean;
  readonly supportsRunOptions: boolean;
  readonly supportsRevert: boolean;
  readonly supportsHistory: boolean;
  scriptFor(text: string): readonly ScriptStep[];
  recordStarted(run: ScriptedRun, sessionRef: string, text: string, options: RunOptions): void;
  recordInterrupted(run: ScriptedRun, reason: string | undefined): void;
  recordDisposed(sessionRef: string): void;
  recordSteered(run: ScriptedRun, text: string): void;
}

function refuse(...args: Parameters<typeof agentError>): Promise<never> {
  return Promise.reject(new ProviderRejection(agentError(...args)));
}

export class ScriptedSession implements ProviderSession {
  readonly sessionRef: string;
  readonly #host: ScriptedSessionHost;
  readonly #sink: ProviderEventSink;
  readonly #runsByRef = new Map<string, ScriptedRun>();
  /** Applied responses by ref, as canonical JSON: a repeat is a no-op, a conflict is refused. */
  readonly #applied = new Map<string, string>();
  #active: ScriptedRun | undefined;
  #disposed = false;
  /** The session's history, oldest first: each turn's text and its run (reverts drop the last). */
  readonly #history: { readonly text: string; readonly run: ScriptedRun }[] = [];

  constructor(sessionRef: string, sink: ProviderEventSink, host: ScriptedSessionHost) {
    this.sessionRef = sessionRef;
    this.#sink = sink;
    this.#host = host;
  }

  /** Runs that are neither finished nor disposed of; drain advances these. */
  get liveRuns(): readonly ScriptedRun[] {
    return [...this.#runsByRef.values()].filter((run) => !run.done);
  }

  get runCount(): number {
    return this.#runsByRef.size;
  }

  pendingRefs(): string[] {
    return this.liveRuns.flatMap((run) => (run.waiting === undefined ? [] : [run.waiting.ref]));
  }

  startRun(request: ProviderRunRequest): Promise<ProviderRun> {
    if (this.#disposed) return refuse('session_closed', 'the scripted session is closed');
    // An exact retry re-attaches to the run already started under this runRef.
    const existing = this.#runsByRef.get(request.runRef);
    if (existing !== undefined) return Promise.resolve(existing);
    if (this.#active !== undefined && !this.#active.done) {
      return refuse('illegal_state_transition', 'a scripted run is already active in this session');
    }
    const input = turnInputSchema.safeParse(request.input);
    if (!input.success) return refuse('invalid_request', 'the turn input is invalid');
    const text = input.data.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
    const host = this.#host;
    const given = { model: request.model, effort: request.effort, summary: request.summary };
    const set = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
    if (Object.keys(set).length > 0 && !host.supportsRunOptions) {
      return refuse('capability_unsupported', 'the scripted provider declares no per-run options');
    }
    const options = runOptionsSchema.safeParse(set);
    if (!options.success) return refuse('invalid_request', 'a per-run option is invalid');
    const run = new ScriptedRun(request.runRef, request.sink, host.scriptFor(text), {
      interruptMode: host.interruptMode,
      supportsSteer: host.supportsSteer,
      onSteered: (r, steered) => {
        host.recordSteered(r, steered);
      },
      onSettled: () => undefined,
      onInterrupted: (r, reason) => {
        host.recordInterrupted(r, reason);
      },
    });
    this.#runsByRef.set(request.runRef, run);
    this.#active = run;
    this.#history.push({ text, run });
    host.recordStarted(run, this.sessionRef, text, options.data);
    return Promise.resolve(run);
  }

  respondToInteraction(providerRef: string, response: InteractionResponse): Promise<void> {
    try {
      const captured = captureJson(response);
      if (!captured.ok) return refuse('invalid_request', 'the interaction response is not JSON');
      const key = canonicalJson(captured.value);
      // A pending ask comes first: a script run twice in one session raises its ref again,
      // and that ask must still be unblocked by its own answer.
      const run = this.liveRuns.find((r) => r.waiting?.ref === providerRef);
      if (run?.waiting === undefined) {
        const applied = this.#applied.get(providerRef);
        // Unknown (or no longer pending) refs are a no-op, never an unknown outcome.
        if (applied === undefined || applied === key) return Promise.resolve();
        return refuse(
          'interaction_already_settled',
          'the interaction was already answered differently',
        );
      }
      const reason = checkResponseAgainstRequest(run.waiting.request, response);
      if (reason !== undefined) return refuse('invalid_request', reason);
      this.#applied.set(providerRef, key);
      run.release(providerRef);
      return Promise.resolve();
    } catch {
      return refuse('invalid_request', 'the interaction response could not be read');
    }
  }

  dispose(): Promise<void> {
    if (this.#disposed) return Promise.resolve();
    this.#disposed = true;
    for (const run of this.liveRuns) run.terminate(SCRIPTED_DISPOSE_REASON);
    try {
      this.#sink.emit({
        payload: { type: 'diagnostic', level: 'debug', message: 'scripted session disposed' },
      });
    } catch {
      // emit is specified never to throw
    }
    this.#host.recordDisposed(this.sessionRef);
    return Promise.resolve();
  }

  revert(request: RevertRequest): Promise<RevertResult> {
    if (this.#disposed) return refuse('session_closed', 'the scripted session is closed');
    const parsed = revertRequestSchema.safeParse(request);
    if (!parsed.success) return refuse('invalid_request', 'the revert request is invalid');
    if (this.#active !== undefined && !this.#active.done) {
      return refuse('illegal_state_transition', 'a scripted run is active in this session');
    }
    const { turns } = parsed.data;
    if (turns > this.#history.length) return refuse('invalid_request', 'fewer turns than asked');
    this.#history.splice(this.#history.length - turns);
    return Promise.resolve({ turns, files: 'kept' });
  }

  /** The cursor is the count of newer turns already listed. */
  history(request: HistoryRequest): Promise<HistoryPage> {
    if (this.#disposed) return refuse('session_closed', 'the scripted session is closed');
    const parsed = historyRequestSchema.safeParse(request);
    const from = Number(parsed.data?.cursor ?? '0');
    if (!parsed.success || !Number.isSafeInteger(from) || from < 0)
      return refuse('invalid_request', 'the history request is invalid');
    const newestFirst = [...this.#history].reverse();
    const limit = parsed.data.limit ?? 25;
    const turns = newestFirst.slice(from, from + limit).map(({ text, run }) => ({
      ...(text === '' ? {} : { input: { parts: [{ type: 'text' as const, text }] } }),
      events: [],
      outcome: run.outcomeForHistory(),
    }));
    const next = from + limit < newestFirst.length ? { nextCursor: String(from + limit) } : {};
    return Promise.resolve({ turns, ...next });
  }

  exportRecoveryRecord(): Promise<ProviderRecoveryRecord> {
    return Promise.resolve({
      providerId: this.#host.providerId,
      providerVersion: this.#host.providerVersion,
      wireVersion: WIRE_VERSION,
      opaque: { sessionRef: this.sessionRef, runCount: this.runCount },
    });
  }
}
