/**
 * A line typed while a run streams is sent to that run as a steer (ADR-0041): the terminal stays
 * in cooked mode (Ctrl-C is still a signal), and nothing is read while a prompt asks the person.
 */
import { createInterface, type Interface } from 'node:readline';
import { isRuntimeError, type RuntimeSession } from '@relvo-labs/agent-runtime';
import { neutraliseLine } from '../ui/neutralise.js';
import type { Output } from '../ui/output.js';

/** Longer lines are not steers a person typed; they are refused rather than cut. */
export const MAX_STEER_CHARS = 4000;

export interface SteerInputOptions {
  readonly input: NodeJS.ReadableStream;
  readonly session: Pick<RuntimeSession, 'steer'>;
  readonly out: Output;
  /** True while an approval or question prompt owns the terminal. */
  readonly asking: () => boolean;
}

export class SteerInput {
  #lines: Interface | undefined;
  readonly #options: SteerInputOptions;

  constructor(options: SteerInputOptions) {
    this.#options = options;
  }

  /** Reads lines until `stop()`; idempotent. */
  start(): void {
    if (this.#lines !== undefined) return;
    const lines = createInterface({ input: this.#options.input, terminal: false });
    lines.on('line', (line) => {
      this.#send(line.trim());
    });
    this.#lines = lines;
  }

  stop(): void {
    this.#lines?.close();
    this.#lines = undefined;
  }

  #send(text: string): void {
    const { out, session, asking } = this.#options;
    // a prompt's own answer arrives here too: it is the prompt's, never a steer
    if (text === '' || asking()) return;
    if (text.length > MAX_STEER_CHARS) {
      out.warn(`  not sent: a steer is at most ${String(MAX_STEER_CHARS)} characters`);
      return;
    }
    out.note(out.c.dim(`  ↳ steer: ${neutraliseLine(text)}`));
    session.steer(text).then(
      () => undefined,
      (error: unknown) => {
        const reason = isRuntimeError(error) ? error.reason : 'unknown';
        out.warn(`  the steer was not sent (${reason})`);
      },
    );
  }
}
