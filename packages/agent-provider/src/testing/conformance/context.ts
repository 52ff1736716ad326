import { randomBytes } from 'node:crypto';
import { isProviderRejection } from '../../errors.js';
import { canonicalJson, captureJson } from '../../json.js';
import type {
  ProviderEventSink,
  ProviderRun,
  ProviderRunRequest,
  ProviderSession,
  ProviderSessionInit,
} from '../../interfaces.js';
import type { ProviderRecoveryRecord } from '../../schemas/recovery.js';
import type { AgentError, AgentErrorCode } from '../../schemas/error.js';
import type { ProviderDescriptor } from '../../schemas/descriptor.js';
import type { ProviderEventPayload } from '../../schemas/events.js';
import type { ProviderRunTermination } from '../../schemas/termination.js';
import type { TurnInput } from '../../schemas/turn.js';
import { recorder, type Recorder } from './recorder.js';
import type { ConformanceHarness, ConformanceScenario, ConformanceSubject } from './types.js';

/** Thrown inside a check to fail it with a clear message; the runner turns it into a result. */
export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';
}

export function fail(message: string): never {
  throw new CheckFailure(message);
}

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** The per-run options a run of the kit may carry. */
export type RunOptionsInput = Pick<ProviderRunRequest, 'model' | 'effort' | 'summary'>;

export interface OpenedSession {
  readonly session: ProviderSession;
  readonly sink: Recorder;
  /** Every run started through the kit on this session. */
  readonly runs: StartedRun[];
}

export interface StartedRun {
  readonly runRef: string;
  readonly sink: Recorder;
  readonly run: ProviderRun;
  readonly input: TurnInput;
  /** Set once `completion` settled (the sink is stale from then on). */
  outcome: Settled<ProviderRunTermination> | undefined;
}

const DEFAULT_WAIT_MS = 2000;
const FAST_TURNS = 50;

function yieldTurn(turn: number): Promise<void> {
  return new Promise((resolve) => {
    if (turn < FAST_TURNS) setImmediate(resolve);
    else setTimeout(resolve, 2);
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Per-check state: the subject under test, every sink the kit handed out, every AgentError
 * the provider produced, and the caller-supplied markers that must never be echoed.
 */
export class CheckContext {
  readonly subject: ConformanceSubject;
  readonly descriptor: ProviderDescriptor;
  readonly harness: ConformanceHarness;
  readonly sessions: OpenedSession[] = [];
  /** Every AgentError seen: rejections and failed terminations. */
  readonly errors: { readonly where: string; readonly error: unknown }[] = [];
  /** Caller-supplied refs, answers and keys planted by the kit. */
  readonly callerMarkers: string[] = [];
  readonly #waitMs: number;
  #counter = 0;
  readonly #nonce = randomBytes(4).toString('hex');

  constructor(
    harness: ConformanceHarness,
    subject: ConformanceSubject,
    descriptor: ProviderDescriptor,
  ) {
    this.harness = harness;
    this.subject = subject;
    this.descriptor = descriptor;
    this.#waitMs = harness.waitMs ?? DEFAULT_WAIT_MS;
  }

  /** A fresh caller marker, valid as a runRef, providerRef, question key and answer text. */
  marker(label: string): string {
    this.#counter += 1;
    const value = `cnf_${label}_${this.#nonce}${String(this.#counter)}`;
    this.callerMarkers.push(value);
    return value;
  }

  allSinks(): Recorder[] {
    return this.sessions.flatMap((s) => [s.sink, ...s.runs.map((r) => r.sink)]);
  }

  /** Every payload recorded on any sink, in emission order per sink. */
  allPayloads(): ProviderEventPayload[] {
    return this.allSinks().flatMap((sink) => sink.payloads());
  }

  // ---- bounded waits ------------------------------------------------------------------

  async waitUntil(condition: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + this.#waitMs;
    for (let turn = 0; ; turn += 1) {
      this.subject.driver.pump?.();
      if (condition()) return;
      if (Date.now() > deadline && turn > FAST_TURNS) {
        fail(`timed out after ${String(this.#waitMs)}ms waiting for ${what}`);
      }
      await yieldTurn(turn);
    }
  }

  /** Lets the provider run for a few turns without waiting for anything in particular. */
  async idle(turns = 20): Promise<void> {
    for (let turn = 0; turn < turns; turn += 1) {
      this.subject.driver.pump?.();
      await yieldTurn(0);
    }
    this.subject.driver.pump?.();
  }

  /**
   * Calls a provider method that must return a promise (docs/spi.md §6: refusals are rejected promises,
   * never synchronous throws), and waits for it within the bound.
   */
  async call<T>(what: string, invoke: () => Promise<T>): Promise<Settled<T>> {
    const promise = this.start(what, invoke);
    return this.settle(what, promise);
  }

  /** Starts a provider call without waiting; fails on a synchronous throw or a non-promise. */
  start<T>(what: string, invoke: () => Promise<T>): Promise<T> {
    let returned: unknown;
    try {
      returned = invoke();
    } catch {
      fail(`${what} threw synchronously instead of returning a rejected promise`);
    }
    if (!isThenable(returned)) fail(`${what} did not return a promise`);
    const promise = Promise.resolve(returned as Promise<T>);
    // Observed later by settle(); marked handled now so a refusal is never reported as unhandled.
    promise.catch(() => undefined);
    return promise;
  }

  async settle<T>(what: string, promise: Promise<T>): Promise<Settled<T>> {
    let result: Settled<T> | undefined;
    promise.then(
      (value) => {
        result = { ok: true, value };
      },
      (error: unknown) => {
        result = { ok: false, error };
        this.errors.push({ where: what, error });
      },
    );
    await this.waitUntil(() => result !== undefined, `${what} to settle`);
    return result as Settled<T>;
  }

  /** Asserts a ProviderRejection (optionally with one of `codes`) and returns its AgentError. */
  rejection(what: string, result: Settled<unknown>, codes?: readonly AgentErrorCode[]): AgentError {
    if (result.ok) fail(`${what} resolved; expected a ProviderRejection`);
    if (!isProviderRejection(result.error)) {
      fail(`${what} failed with an unknown outcome (not a ProviderRejection)`);
    }
    const error = result.error.agentError;
    if (codes !== undefined && !codes.includes(error.code)) {
      fail(`${what} rejected with code ${error.code}; expected ${codes.join(' or ')}`);
    }
    return error;
  }

  ok<T>(what: string, result: Settled<T>): T {
    if (result.ok) return result.value;
    const detail = isProviderRejection(result.error)
      ? `a ProviderRejection (${result.error.agentError.code})`
      : 'an unknown outcome';
    return fail(`${what} failed with ${detail}`);
  }

  // ---- sessions and runs --------------------------------------------------------------

  init(sink: ProviderEventSink, options?: ProviderSessionInit['options']): ProviderSessionInit {
    const base = this.subject.sessionInit();
    return { options: options ?? base.options, workspace: base.workspace, sink };
  }

  async openSession(from?: ProviderRecoveryRecord): Promise<OpenedSession> {
    const sink = recorder('session');
    const { provider } = this.subject;
    const what = from === undefined ? 'createSession' : 'forkSession';
    const result = await this.call(what, () =>
      from === undefined || provider.forkSession === undefined
        ? provider.createSession(this.init(sink))
        : provider.forkSession(from, this.init(sink)),
    );
    const session = this.ok(`${what} with a valid init`, result);
    const opened: OpenedSession = { session, sink, runs: [] };
    this.sessions.push(opened);
    return opened;
  }

  defaultInput(): TurnInput {
    return { parts: [{ type: 'text', text: `conformance turn ${this.marker('prompt')}` }] };
  }

  /** Scripts the next native run and returns the input to start it with. */
  script(scenario: ConformanceScenario): TurnInput {
    return this.subject.driver.script(scenario) ?? this.defaultInput();
  }

  /** startRun with a fresh runRef and sink (and `options`); resolves to the started run. */
  async startRun(
    opened: OpenedSession,
    scenario: ConformanceScenario,
    options: RunOptionsInput = {},
  ): Promise<StartedRun> {
    const input = this.script(scenario);
    const runRef = this.marker('run');
    const sink = recorder(`run ${scenario}`);
    const result = await this.call(`startRun (${scenario})`, () =>
      opened.session.startRun({ ...options, input, sink, runRef }),
    );
    const run = this.ok(`startRun (${scenario})`, result);
    return this.track(opened, { runRef, sink, run, input, outcome: undefined });
  }

  /** Watches a run's completion: its sink goes stale the moment completion settles. */
  track(opened: OpenedSession, started: StartedRun): StartedRun {
    opened.runs.push(started);
    let completion: Promise<ProviderRunTermination>;
    try {
      completion = started.run.completion;
    } catch {
      return fail('reading run.completion threw');
    }
    if (!isThenable(completion)) fail('run.completion is not a promise');
    completion.then(
      (value) => {
        started.sink.close();
        started.outcome = { ok: true, value };
      },
      (error: unknown) => {
        started.sink.close();
        started.outcome = { ok: false, error };
      },
    );
    return started;
  }

  async completion(started: StartedRun, what: string): Promise<ProviderRunTermination> {
    await this.waitUntil(() => started.outcome !== undefined, `${what}: run completion`);
    const outcome = started.outcome as Settled<ProviderRunTermination>;
    if (!outcome.ok) fail(`${what}: run.completion rejected (it must resolve to a termination)`);
    return outcome.value;
  }

  async waitForRequest(
    started: StartedRun,
    what: string,
  ): Promise<{ providerRef: string; request: unknown }> {
    await this.waitUntil(
      () =>
        started.sink.payloads().some((p) => p.type === 'interaction.requested') ||
        started.outcome !== undefined,
      `${what}: interaction.requested`,
    );
    const requested = started.sink.payloads().find((p) => p.type === 'interaction.requested');
    if (requested?.type !== 'interaction.requested') {
      return fail(`${what}: the run ended without raising an interaction`);
    }
    return { providerRef: requested.providerRef, request: requested.request };
  }

  /** Best-effort teardown at the end of a check; never fails the check by itself. */
  async cleanup(): Promise<void> {
    for (const opened of this.sessions) {
      try {
        await this.settle('cleanup dispose', Promise.resolve(opened.session.dispose()));
      } catch {
        // a dispose that hangs is reported by the dispose checks, not here
      }
    }
  }
}

/** Canonical JSON of any value, or a fixed token when it is not JSON-safe. */
export function canon(value: unknown): string {
  const captured = captureJson(value);
  return captured.ok ? canonicalJson(captured.value) : '<not JSON>';
}
