/**
 * Drives one runtime session for a terminal: reads its envelopes in order (one subscription
 * from sequence 1), prints them (`--json`) or renders them (text on stdout, the rest on
 * stderr), bridges interactions to an Answerer, and hands each turn's outcome back. What a
 * turn measured, and how, is `turn-stats.ts`.
 */
import { toAgentError, type RunTermination } from '@relvo-labs/agent-provider';
import type { EventEnvelope, EventSubscription, RuntimeSession } from '@relvo-labs/agent-runtime';
import { describeToolActivity } from '../ui/activity.js';
import { neutraliseLine } from '../ui/neutralise.js';
import type { Output } from '../ui/output.js';
import { PromptAborted, PromptInterrupted } from '../ui/prompt.js';
import { showRequest } from '../ui/request-heading.js';
import { retryLine } from './advice.js';
import { describeResponse, type Answer, type Answerer } from './answers.js';
import { elapsedLabel } from './progress.js';
import { submitErrorToExit } from './submit-errors.js';
import { newTurnStats, noteDelta, noteUsage, WaitingClock, type TurnStats } from './turn-stats.js';

export type TurnEnd =
  | { readonly kind: 'finished'; readonly termination: RunTermination; readonly stats: TurnStats }
  /** The person pressed Ctrl-C twice: the caller closes the session and exits 130. */
  | { readonly kind: 'quit'; readonly stats: TurnStats };

export interface SessionDriverOptions {
  readonly session: RuntimeSession;
  /** Where the rendering starts: a resumed session's earlier turns are not shown again. */
  readonly fromSequence?: number;
  readonly out: Output;
  readonly answerer: Answerer;
  /** Called before an answer is handed to the runtime (the demo queues its closing reply). */
  readonly beforeRespond?: (answer: Answer) => void;
  /** Ctrl-C pressed inside a prompt (raw mode: no SIGINT was sent). */
  readonly onPromptCtrlC?: () => void;
  /** Sees each envelope before it is rendered (start-up progress, status lines). */
  readonly onEnvelope?: (envelope: EventEnvelope) => void;
  /** Said when an approval is denied because there is no terminal to ask in. */
  readonly noTerminalHint?: string;
  readonly now?: () => number;
}

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** How long `close()` waits for `session.closed` to come through the subscription. */
export const CLOSE_WAIT_MS = 15_000;

export class SessionDriver {
  private readonly subscription: EventSubscription;
  private readonly loop: Promise<void>;
  private readonly prompts = new Map<string, AbortController>();
  private readonly quitSignal = deferred<'quit'>();
  private readonly closedSeen = deferred<undefined>();
  private finished: Deferred<RunTermination> | undefined;
  private stats: TurnStats | undefined;
  private lastSequence = 0;
  /** A turn was submitted and the runtime has not admitted it yet (codex starting). */
  private admitting = false;
  private interruptWhenAdmitted = false;
  private gaps = 0;
  private readonly now: () => number;
  private readonly waiting: WaitingClock;

  constructor(private readonly options: SessionDriverOptions) {
    this.now = options.now ?? (() => performance.now());
    this.waiting = new WaitingClock(this.now);
    const fromSequence = options.fromSequence ?? 1;
    this.lastSequence = fromSequence - 1;
    this.subscription = options.session.subscribe({ fromSequence });
    this.loop = this.consume();
  }

  /** Envelopes whose sequence did not follow the previous one (always 0 unless the runtime breaks). */
  get sequenceGaps(): number {
    return this.gaps;
  }

  /** An approval or question prompt owns the terminal. */
  get asking(): boolean {
    return this.prompts.size > 0;
  }

  /** Second Ctrl-C: abandon the turn in flight; `turn()` resolves `{ kind: 'quit' }`. */
  quit(): void {
    for (const ac of this.prompts.values()) ac.abort();
    this.quitSignal.resolve('quit');
  }

  /** First Ctrl-C: interrupt the active run, if any. */
  async interrupt(): Promise<void> {
    if (this.admitting) {
      // no run to interrupt yet: do it the moment there is one, rather than lose the press
      this.interruptWhenAdmitted = true;
      return;
    }
    // codex refuses an interrupt before the turn it just started is active: the provider holds
    // it until then (one place, for every host), so one call is enough here
    try {
      await this.options.session.interrupt('interrupted by the user');
    } catch {
      // no active run (already finished) or an unknown outcome: the turn ends either way
    }
  }

  /** Submits a turn and resolves when its run finished (or the person quit). */
  async turn(prompt: string, profile?: string): Promise<TurnEnd> {
    const stats = newTurnStats(this.now());
    this.stats = stats;
    const finished = deferred<RunTermination>();
    this.finished = finished;
    this.admitting = true;
    const submitted = this.options.session
      .submitTurn(profile === undefined ? { input: prompt } : { input: prompt, profile })
      .finally(() => {
        this.admitting = false;
        if (this.interruptWhenAdmitted) {
          this.interruptWhenAdmitted = false;
          void this.interrupt();
        }
      });
    const outcome = await Promise.race([
      submitted.then(
        () => finished.promise,
        (error: unknown) => {
          throw submitErrorToExit(error);
        },
      ),
      this.quitSignal.promise,
    ]);
    if (outcome === 'quit') return { kind: 'quit', stats };
    return { kind: 'finished', termination: outcome, stats };
  }

  /** Closes the session (disposing its provider sessions) and drains the subscription. */
  async close(): Promise<void> {
    for (const ac of this.prompts.values()) ac.abort();
    try {
      await this.options.session.close();
    } finally {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.closedSeen.promise,
        new Promise((r) => {
          timer = setTimeout(r, CLOSE_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
      this.subscription.close();
      await this.loop;
    }
  }

  private async consume(): Promise<void> {
    try {
      for await (const envelope of this.subscription) {
        this.options.onEnvelope?.(envelope);
        this.handle(envelope);
        if (envelope.payload.type === 'session.closed') break;
      }
    } catch (error) {
      this.options.out.warn(
        `event stream ended early: ${neutraliseLine(error instanceof Error ? error.message : 'unknown error')}`,
      );
      // the turn's end cannot come through the stream any more: report it failed, never wait
      const at = new Date().toISOString();
      this.finished?.resolve({ outcome: 'failed', at, error: toAgentError(error) });
    } finally {
      this.closedSeen.resolve(undefined);
    }
  }

  private handle(envelope: EventEnvelope): void {
    const { out } = this.options;
    if (envelope.sequence !== this.lastSequence + 1) this.gaps += 1;
    this.lastSequence = envelope.sequence;
    if (out.json) out.jsonLine(envelope);
    const payload = envelope.payload;
    const stats = this.stats;
    switch (payload.type) {
      case 'turn.started':
        if (stats !== undefined) stats.readyAt = this.now();
        break;
      case 'run.message_delta':
        if (stats !== undefined) noteDelta(stats, payload.text, this.now);
        out.text(payload.text);
        break;
      case 'run.usage':
        if (stats !== undefined) noteUsage(stats, payload.usage);
        break;
      case 'interaction.requested':
        this.ask(payload.interactionId, payload.request, payload.expiresAt);
        break;
      case 'interaction.settled': {
        this.waiting.stop(payload.interactionId, this.stats);
        const ac = this.prompts.get(payload.interactionId);
        this.prompts.delete(payload.interactionId);
        ac?.abort();
        const s = payload.settlement;
        if (s.outcome !== 'responded') out.note(out.c.dim(`  (request ${s.outcome})`));
        break;
      }
      case 'run.tool_activity':
        out.note(out.c.dim(`  ${neutraliseLine(describeToolActivity(payload))}`));
        break;
      case 'diagnostic': {
        if (payload.level !== 'warning') break;
        // a retry says how often and why: the same line ten minutes long told nobody anything
        const retry = retryLine(payload.detail);
        // a retry also says how long the turn has waited: twelve of them took minutes
        const waited =
          retry === undefined || stats === undefined
            ? ''
            : ` · ${elapsedLabel(this.now() - stats.submittedAt)} into the turn`;
        out.note(out.c.dim(`  ${retry ?? `codex: ${neutraliseLine(payload.message)}`}${waited}`));
        break;
      }
      case 'run.finished':
        if (stats !== undefined) stats.finishedAt = this.now();
        this.finished?.resolve(payload.termination);
        break;
      default:
        break;
    }
  }

  private ask(interactionId: string, request: Parameters<Answerer>[0], expiresAt?: string): void {
    const { out, answerer, session } = this.options;
    this.waiting.start(interactionId);
    const ac = new AbortController();
    this.prompts.set(interactionId, ac);
    const summary = showRequest(out, request, expiresAt);
    void (async () => {
      let answer: Answer;
      try {
        answer = await answerer(request, ac.signal);
        this.waiting.stop(interactionId, this.stats);
      } catch (error) {
        if (error instanceof PromptInterrupted) {
          // Ctrl-C inside the prompt counts like a SIGINT press
          this.options.onPromptCtrlC?.();
        } else if (!(error instanceof PromptAborted)) {
          out.warn('could not ask in this terminal; interrupting the turn');
          await this.interrupt();
        }
        return;
      }
      if (ac.signal.aborted) return;
      if (answer.response === undefined) {
        out.warn(
          '  this needs an answer and there is no terminal to ask in: interrupting the turn',
        );
        await this.interrupt();
        return;
      }
      const how =
        answer.how === 'flag'
          ? ' (from the command line)'
          : answer.how === 'unbound'
            ? ' (no host function is bound to this tool here)'
            : answer.how === 'no_terminal'
              ? ` (no terminal to ask in: never approved without a person${this.options.noTerminalHint === undefined ? '' : `; ${this.options.noTerminalHint}`})`
              : '';
      out.note(`  → ${describeResponse(answer.response)}${how}`);
      this.stats?.interactions.push({
        request: summary,
        answer: describeResponse(answer.response),
      });
      this.options.beforeRespond?.(answer);
      try {
        await session.respond(interactionId, answer.response);
      } catch (error) {
        out.warn(
          `  the answer was not accepted: ${neutraliseLine(error instanceof Error ? error.message : 'unknown error')}`,
        );
      }
    })();
  }
}
