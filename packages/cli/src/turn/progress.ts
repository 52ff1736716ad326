/**
 * What a person sees between pressing Enter and the first token: a spinner while codex starts
 * (✔ only once the handshake is done and the turn started), then a status line until the
 * model's first output. Both are decoration for a terminal: the status line only when stdout is
 * one too (the model's text goes there), never in --json mode.
 */
import type { EventEnvelope } from '@relvo-labs/agent-runtime';
import type { Output, Spinner } from '../ui/output.js';

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

  constructor(
    private readonly out: Output,
    private readonly stdoutIsTty: boolean,
    private readonly codexLabel: string,
    /** Runs right after the ✔ (the demo labels the model's text there). */
    private readonly onReady?: () => void,
  ) {
    if (!out.json) this.spinner = out.spinner(`starting ${codexLabel}…`);
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
        this.status = this.out.spinner('waiting for the model…');
      }
      return;
    }
    if (FIRST_OUTPUT.has(type)) this.clearStatus();
  };

  clearStatus(): void {
    this.status?.stop();
    this.status = undefined;
  }

  /** The command ends: a start-up that never finished is marked as failed. */
  stop(): void {
    this.clearStatus();
    this.spinner?.fail(`${this.codexLabel} did not start a turn`);
    this.spinner = undefined;
  }
}

type EnvelopeLike = Pick<EventEnvelope, 'payload'>;
