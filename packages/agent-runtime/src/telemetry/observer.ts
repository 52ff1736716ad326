/**
 * The runtime's telemetry: an observer of the envelopes the event writer committed, the same
 * one-direction flow subscribers see (provider → intake → log → store → here). It never
 * writes back and never throws into the writer. Installed only when the host asked for it.
 */
import type { Attributes, MeterProvider, Span, Tracer, TracerProvider } from '@opentelemetry/api';
import type { EventEnvelope, PayloadOf } from '../envelope.js';
import type { BatchObserver } from '../session/writer.js';
import { createInstruments, type Instruments } from './instruments.js';
import { ATTR, OPERATION, SPAN, TELEMETRY_SCOPE } from './names.js';
import { TurnTrace } from './turn-trace.js';
import { bounded, epochMs, type OtelApi } from './values.js';

interface SessionTrace {
  readonly span: Span;
  readonly context: ReturnType<OtelApi['trace']['setSpan']>;
  turn: TurnTrace | undefined;
}

function textOf(input: PayloadOf<'turn.started'>['input']): string {
  return input.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
}

export class RuntimeTelemetry implements BatchObserver {
  readonly #tracer: Tracer;
  readonly #metrics: Instruments;
  readonly #sessions = new Map<string, SessionTrace>();

  constructor(
    private readonly api: OtelApi,
    tracers: TracerProvider,
    meters: MeterProvider,
    private readonly content: boolean,
  ) {
    this.#tracer = tracers.getTracer(TELEMETRY_SCOPE);
    this.#metrics = createInstruments(meters.getMeter(TELEMETRY_SCOPE));
  }

  committed(batch: readonly EventEnvelope[], appendSeconds: number): void {
    try {
      this.#metrics.storeAppend.record(appendSeconds);
      for (const envelope of batch) this.#observe(envelope);
    } catch {
      // telemetry is never a reason for the event path to fail; a broken SDK loses spans only
    }
  }

  #observe(envelope: EventEnvelope): void {
    const payload = envelope.payload;
    switch (payload.type) {
      // the most frequent first: a delta reads nothing and allocates nothing
      case 'run.message_delta':
        return;
      case 'session.opened':
        this.#open(envelope, payload);
        return;
      case 'session.closed':
        this.#close(envelope, payload);
        return;
      case 'turn.started':
        this.#startTurn(envelope, payload);
        return;
      case 'turn.settled': {
        const session = this.#sessions.get(envelope.sessionId);
        const turn = session?.turn;
        if (session === undefined || turn === undefined) return;
        session.turn = undefined;
        turn.settle(envelope, payload, epochMs(envelope.occurredAt));
        return;
      }
      case 'run.started': {
        const turn = this.#turn(envelope);
        turn?.span.setAttribute(ATTR.attempt, payload.attempt);
        if (envelope.runId !== undefined) turn?.span.setAttribute(ATTR.runId, envelope.runId);
        return;
      }
      case 'run.tool_activity':
        this.#turn(envelope)?.tool(payload, epochMs(envelope.occurredAt), this.content);
        return;
      case 'run.usage':
        this.#turn(envelope)?.usage(payload);
        return;
      case 'diagnostic':
        this.#turn(envelope)?.retry(payload, epochMs(envelope.occurredAt));
        return;
      case 'interaction.requested':
        this.#turn(envelope)?.requested(payload, epochMs(envelope.occurredAt), this.content);
        return;
      case 'interaction.answered':
        this.#turn(envelope)?.answered(payload, epochMs(envelope.occurredAt));
        return;
      case 'interaction.settled':
        this.#turn(envelope)?.settled(payload, epochMs(envelope.occurredAt));
        return;
      default:
        return;
    }
  }

  #turn(envelope: EventEnvelope): TurnTrace | undefined {
    return this.#sessions.get(envelope.sessionId)?.turn;
  }

  #startSession(envelope: EventEnvelope, attributes: Attributes): SessionTrace {
    const api = this.api;
    attributes[ATTR.sessionId] = envelope.sessionId;
    // a trace of its own: the writer's async context is whoever first woke it, not the session
    const span = this.#tracer.startSpan(SPAN.session, {
      kind: api.SpanKind.INTERNAL,
      root: true,
      startTime: epochMs(envelope.occurredAt),
      attributes,
    });
    const trace: SessionTrace = {
      span,
      context: api.trace.setSpan(api.ROOT_CONTEXT, span),
      turn: undefined,
    };
    this.#sessions.set(envelope.sessionId, trace);
    this.#metrics.liveSessions.add(1);
    return trace;
  }

  #open(envelope: EventEnvelope, payload: PayloadOf<'session.opened'>): void {
    if (this.#sessions.has(envelope.sessionId)) return;
    const attributes: Attributes = {
      [ATTR.profile]: payload.defaultProfile,
      [ATTR.ownership]: payload.workspace.ownership,
    };
    if (payload.forkedFrom !== undefined) attributes[ATTR.forkedFrom] = payload.forkedFrom;
    if (this.content) attributes[ATTR.workspaceRoot] = bounded(payload.workspace.root);
    this.#startSession(envelope, attributes);
  }

  #startTurn(envelope: EventEnvelope, payload: PayloadOf<'turn.started'>): void {
    // a session resumed or taken over here: its span starts with its first turn in this process
    const session =
      this.#sessions.get(envelope.sessionId) ??
      this.#startSession(envelope, {
        [ATTR.resumed]: true,
        [ATTR.profile]: payload.profile,
      });
    const atMs = epochMs(envelope.occurredAt);
    session.turn?.settleUnknown(atMs);
    const attributes: Attributes = {
      [ATTR.operation]: OPERATION.turn,
      [ATTR.turnId]: payload.turnId,
      [ATTR.profile]: payload.profile,
      [ATTR.providerId]: payload.providerId,
    };
    if (this.content) attributes[ATTR.turnInput] = bounded(textOf(payload.input));
    const span = this.#tracer.startSpan(
      SPAN.turn,
      { kind: this.api.SpanKind.INTERNAL, startTime: atMs, attributes },
      session.context,
    );
    const context = this.api.trace.setSpan(session.context, span);
    session.turn = new TurnTrace(
      { api: this.api },
      this.#tracer,
      this.#metrics,
      span,
      context,
      atMs,
      payload.profile,
    );
  }

  #close(envelope: EventEnvelope, payload: PayloadOf<'session.closed'>): void {
    const session = this.#sessions.get(envelope.sessionId);
    if (session === undefined) return;
    this.#sessions.delete(envelope.sessionId);
    const atMs = epochMs(envelope.occurredAt);
    session.turn?.settleUnknown(atMs);
    session.span.setAttribute(ATTR.closeReason, payload.reason);
    if (payload.error !== undefined) session.span.setAttribute(ATTR.errorType, payload.error.code);
    if (payload.reason === 'failed')
      session.span.setStatus({ code: this.api.SpanStatusCode.ERROR });
    session.span.end(atMs);
    this.#metrics.liveSessions.add(-1);
  }

  /** At shutdown: what never saw its end (a failed log) ends now, unsettled. */
  close(): void {
    const now = Date.now();
    for (const session of this.#sessions.values()) {
      session.turn?.settleUnknown(now);
      session.span.end(now);
      this.#metrics.liveSessions.add(-1);
    }
    this.#sessions.clear();
  }
}
