/**
 * What a person sees between pressing Enter and the first token: a spinner while codex starts
 * (✔ only once the handshake is done and the turn started), then a status line until the
 * model's first output. Both are decoration for a terminal: the status line only when stdout is
 * one too (the model's text goes there), never in --json mode. Both count the seconds they have
 * waited, and the status line says how often codex retried the model request and why.
 */
import type { EventEnvelope } from '@relvo-labs/agent-runtime';
import type { Output, Spinner } from '../ui/output.js';

/** How often the seconds of a wait are redrawn. */
const TICK_MS = 1_000;

/** `12 s`, `5 min 39 s`: how long a wait has lasted. */
export function elapsedLabel(ms: number): string {
  const seconds = Math.floor(ms / 1_000);
  if (seconds < 60) return `${String(seconds)} s`;
  return `${String(Math.floor(seconds / 60))} min ${String(seconds % 60)} s`;
}

/** `retry 3 (stream_disconnected)` from a retry diagnostic's detail; undefined for others. */
function retryOf(envelope: EnvelopeLike): string | undefined {
  const payload = envelope.payload;
  if (payload.type !== 'diagnostic' || payload.detail?.willRetry !== true) return undefined;
  const cause =
    typeof payload.detail.providerCode === 'string' ? payload.detail.providerCode : 'unknown';
  const count = typeof payload.detail.retry === 'number' ? ` ${String(payload.detail.retry)}` : '';
  return `retry${count} (${cause})`;
}

/** The first of these ends the wait for the model. */
const FIRST_OUTPUT = new Set([
  'run.message_delta',
  'run.tool_activity',
  'interaction.requested',
  'run.finished',
]);

export class StartupProgress {
  private spinner: Spinner | undefined;
  private status: Spinner | undefined;
  private ready = false;
  private readonly startedAt = performance.now();
  private waitStartedAt = this.startedAt;
  private retry: string | undefined;
  private ticker: NodeJS.Timeout | undefined;

  constructor(
    private readonly out: Output,
    private readonly stdoutIsTty: boolean,
    private readonly codexLabel: string,
    /** Runs right after the ✔ (the demo labels the model's text there). */
    private readonly onReady?: () => void,
  ) {
    if (!out.json) {
      this.spinner = out.spinner(`starting ${codexLabel}…`);
      this.ticker = setInterval(() => {
        this.redraw();
      }, TICK_MS);
      this.ticker.unref();
    }
  }

  /** What is awaited, and for how long, on whichever line is showing. */
  private redraw(): void {
    const now = performance.now();
    this.spinner?.update(`starting ${this.codexLabel}… ${elapsedLabel(now - this.startedAt)}`);
    const retry = this.retry === undefined ? '' : ` · ${this.retry}`;
    this.status?.update(
      `waiting for the model… ${elapsedLabel(now - this.waitStartedAt)}${retry} (Ctrl-C interrupts)`,
    );
  }

  /** Called with each envelope before the driver renders it. */
  readonly onEnvelope = (envelope: EnvelopeLike): void => {
    const type = envelope.payload.type;
    if (type === 'turn.started' && !this.ready) {
      this.ready = true;
      const ms = Math.round(performance.now() - this.startedAt);
      this.spinner?.succeed(`${this.codexLabel} ready (${ms} ms)`);
      this.spinner = undefined;
      this.onReady?.();
      if (!this.out.json && this.out.interactive && this.stdoutIsTty) {
        this.waitStartedAt = performance.now();
        this.status = this.out.spinner('waiting for the model… 0 s (Ctrl-C interrupts)');
      }
      return;
    }
    const retry = retryOf(envelope);
    if (retry !== undefined) {
      this.retry = retry;
      this.redraw();
    }
    if (FIRST_OUTPUT.has(type)) this.clearStatus();
  };

  clearStatus(): void {
    this.status?.stop();
    this.status = undefined;
    if (this.spinner === undefined) this.stopTicker();
  }

  private stopTicker(): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
  }

  /** The command ends: a start-up that never finished is marked as failed. */
  stop(): void {
    this.stopTicker();
    this.clearStatus();
    this.spinner?.fail(`${this.codexLabel} did not start a turn`);
    this.spinner = undefined;
  }
}

type EnvelopeLike = Pick<EventEnvelope, 'payload'>;
