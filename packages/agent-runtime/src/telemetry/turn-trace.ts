/**
 * One turn's spans: the turn itself and its children (tool calls, interaction waits), opened and
 * closed from the envelopes the log committed. Times are the envelopes' `occurredAt`.
 */
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { EventEnvelope, PayloadOf } from '../envelope.js';
import type { Instruments } from './instruments.js';
import { ATTR, OPERATION, SPAN, SPAN_EVENT } from './names.js';
import { bounded, type OtelParts } from './values.js';

interface Wait {
  readonly span: Span;
  readonly startMs: number;
  readonly kind: string;
}

export class TurnTrace {
  readonly #tools = new Map<string, Span>();
  readonly #waits = new Map<string, Wait>();
  inputTokens: number | undefined;
  outputTokens: number | undefined;

  constructor(
    private readonly otel: OtelParts,
    private readonly tracer: Tracer,
    private readonly metrics: Instruments,
    readonly span: Span,
    readonly context: Context,
    readonly startMs: number,
    readonly profile: string,
  ) {}

  /** `run.tool_activity`: `invoked` opens a span, its terminal phase (same activityId) ends it. */
  tool(payload: PayloadOf<'run.tool_activity'>, atMs: number, content: boolean): void {
    const id = payload.detail?.['activityId'];
    const key = typeof id === 'string' ? id : payload.toolName;
    if (payload.phase === 'invoked') {
      const attributes: Attributes = {
        [ATTR.operation]: OPERATION.tool,
        [ATTR.toolName]: payload.toolName,
      };
      if (content && payload.detail !== undefined) {
        attributes[ATTR.toolDetail] = bounded(JSON.stringify(payload.detail));
      }
      const span = this.tracer.startSpan(
        `${SPAN.tool} ${payload.toolName}`,
        { kind: this.otel.api.SpanKind.INTERNAL, startTime: atMs, attributes },
        this.context,
      );
      this.#tools.get(key)?.end(atMs);
      this.#tools.set(key, span);
      return;
    }
    const span = this.#tools.get(key);
    if (span === undefined) return;
    this.#tools.delete(key);
    span.setAttribute(ATTR.toolOutcome, payload.phase);
    if (payload.phase === 'failed') span.setStatus({ code: this.otel.api.SpanStatusCode.ERROR });
    span.end(atMs);
  }

  requested(payload: PayloadOf<'interaction.requested'>, atMs: number, content: boolean): void {
    const { request } = payload;
    const attributes: Attributes = {
      [ATTR.interactionId]: payload.interactionId,
      [ATTR.interactionKind]: request.kind,
    };
    if (request.kind === 'approval') {
      attributes[ATTR.approvalCategory] = request.subject.category;
      if (content) attributes[ATTR.interactionSubject] = bounded(request.subject.summary);
    }
    const span = this.tracer.startSpan(
      SPAN.interaction,
      { kind: this.otel.api.SpanKind.INTERNAL, startTime: atMs, attributes },
      this.context,
    );
    this.#waits.set(payload.interactionId, { span, startMs: atMs, kind: request.kind });
  }

  answered(payload: PayloadOf<'interaction.answered'>, atMs: number): void {
    const wait = this.#waits.get(payload.interactionId);
    if (wait === undefined) return;
    const { response } = payload;
    wait.span.addEvent(
      SPAN_EVENT.answered,
      response.kind === 'approval' ? { [ATTR.approvalDecision]: response.decision } : {},
      atMs,
    );
  }

  settled(payload: PayloadOf<'interaction.settled'>, atMs: number): void {
    const wait = this.#waits.get(payload.interactionId);
    if (wait === undefined) return;
    this.#waits.delete(payload.interactionId);
    const { settlement } = payload;
    wait.span.setAttribute(ATTR.interactionOutcome, settlement.outcome);
    if (settlement.response?.kind === 'approval') {
      wait.span.setAttribute(ATTR.approvalDecision, settlement.response.decision);
    }
    wait.span.end(atMs);
    this.metrics.interactionWait.record(Math.max(0, atMs - wait.startMs) / 1000, {
      [ATTR.interactionKind]: wait.kind,
      [ATTR.interactionOutcome]: settlement.outcome,
    });
  }

  /** A `diagnostic` that says the provider is retrying the model request. */
  retry(payload: PayloadOf<'diagnostic'>, atMs: number): void {
    const detail = payload.detail;
    if (detail?.['willRetry'] !== true) return;
    const code = detail['providerCode'];
    const number = detail['retry'];
    const attributes: Attributes = {};
    if (typeof code === 'string') attributes[ATTR.errorType] = bounded(code, 64);
    if (typeof number === 'number') attributes[ATTR.retryNumber] = number;
    this.span.addEvent(SPAN_EVENT.retry, attributes, atMs);
    this.metrics.retries.add(
      1,
      typeof code === 'string' ? { [ATTR.errorType]: bounded(code, 64) } : {},
    );
  }

  usage(payload: PayloadOf<'run.usage'>): void {
    if (payload.usage.inputTokens !== undefined) this.inputTokens = payload.usage.inputTokens;
    if (payload.usage.outputTokens !== undefined) this.outputTokens = payload.usage.outputTokens;
  }

  /** Ends what is still open under the turn (a run that ended before its items did). */
  endChildren(atMs: number): void {
    for (const span of this.#tools.values()) span.end(atMs);
    for (const wait of this.#waits.values()) wait.span.end(atMs);
    this.#tools.clear();
    this.#waits.clear();
  }

  /** A turn whose settlement this runtime never committed: its span ends with no outcome. */
  settleUnknown(atMs: number): void {
    this.endChildren(atMs);
    this.span.end(atMs);
  }

  /** `turn.settled`: the span's outcome and the turn's metrics. */
  settle(envelope: EventEnvelope, payload: PayloadOf<'turn.settled'>, atMs: number): void {
    this.endChildren(atMs);
    const seconds = Math.max(0, atMs - this.startMs) / 1000;
    const errorType = payload.error?.code;
    this.span.setAttribute(ATTR.outcome, payload.state);
    if (envelope.runId !== undefined) this.span.setAttribute(ATTR.runId, envelope.runId);
    if (this.inputTokens !== undefined) this.span.setAttribute(ATTR.inputTokens, this.inputTokens);
    if (this.outputTokens !== undefined)
      this.span.setAttribute(ATTR.outputTokens, this.outputTokens);
    if (errorType !== undefined) {
      this.span.setAttribute(ATTR.errorType, errorType);
      this.span.setStatus({ code: this.otel.api.SpanStatusCode.ERROR });
    }
    this.span.end(atMs);
    const byOutcome = { [ATTR.outcome]: payload.state, [ATTR.profile]: this.profile };
    this.metrics.turns.add(1, byOutcome);
    this.metrics.turnDuration.record(seconds, byOutcome);
    const operation: Attributes = { [ATTR.operation]: OPERATION.turn };
    if (errorType !== undefined) operation[ATTR.errorType] = errorType;
    this.metrics.operationDuration.record(seconds, operation);
    const tokens = (type: string, value: number | undefined): void => {
      if (value === undefined) return;
      this.metrics.tokenUsage.record(value, {
        [ATTR.operation]: OPERATION.turn,
        [ATTR.tokenType]: type,
      });
    };
    tokens('input', this.inputTokens);
    tokens('output', this.outputTokens);
  }
}
