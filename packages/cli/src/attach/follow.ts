/**
 * Follows one session's log for `relvo-codex attach`: renders each envelope as `log` does, and
 * asks a person about each interaction pending in the log, one at a time, handing the answer to
 * `runtime.respond(sessionId, …)` — the runtime that owns the session carries it out. Nothing
 * here interrupts, closes or takes over the session: detaching only stops following.
 */
import type { InteractionRequest } from '@relvo-labs/agent-provider';
import {
  isRuntimeError,
  type AgentRuntime,
  type EventEnvelope,
  type EventSubscription,
} from '@relvo-labs/agent-runtime';
import { neutraliseLine } from '../ui/neutralise.js';
import type { Output } from '../ui/output.js';
import {
  PromptAborted,
  PromptInterrupted,
  promptForInteraction,
  type PromptStreams,
} from '../ui/prompt.js';
import { showRequest } from '../ui/request-heading.js';
import { TimelineRenderer } from '../ui/timeline.js';

export type FollowEnd = 'ended' | 'detached' | 'failed';

export interface FollowOptions {
  readonly runtime: Pick<
    AgentRuntime,
    'subscribe' | 'respond' | 'pendingInteractions' | 'sessionOwners'
  >;
  readonly sessionId: string;
  /** The first envelope not yet rendered. */
  readonly fromSequence: number;
  readonly out: Output;
  /** undefined: no terminal to ask in; pending requests are shown and left to others. */
  readonly terminal: PromptStreams | undefined;
}

interface Pending {
  readonly interactionId: string;
  readonly request: InteractionRequest;
  readonly expiresAt: string | undefined;
}

/** Why an answer was refused, as one line: the runtime's bounded message and reason token. */
export function refusalLine(error: unknown): string {
  if (isRuntimeError(error))
    return `the answer was not carried out: ${neutraliseLine(error.error.message)} [${error.reason}]`;
  return 'the answer was not carried out: unknown error';
}

export class SessionFollower {
  private readonly renderer: TimelineRenderer;
  private readonly queue: Pending[] = [];
  private readonly seen = new Set<string>();
  private asking: { readonly id: string; readonly ac: AbortController } | undefined;
  private subscription: EventSubscription | undefined;
  private end: FollowEnd | undefined;

  constructor(private readonly options: FollowOptions) {
    this.renderer = new TimelineRenderer(options.out, true);
  }

  /** Stops following (Ctrl-C): the prompt goes away unanswered, the session is left as it is. */
  detach(): void {
    this.end ??= 'detached';
    this.asking?.ac.abort();
    this.subscription?.close();
  }

  /** Follows until the session ends, the person detaches or the stream fails. */
  async follow(): Promise<FollowEnd> {
    const { runtime, sessionId, out } = this.options;
    // asked before the stream starts: the stream only brings what comes after
    for (const i of await runtime.pendingInteractions(sessionId))
      this.enqueue({ interactionId: i.interactionId, request: i.request, expiresAt: i.expiresAt });
    if (this.end !== undefined) return this.end;
    this.subscription = runtime.subscribe(sessionId, { fromSequence: this.options.fromSequence });
    // the store's watch does not hold the process open: following is what attach is for
    const keepAlive = setInterval(() => undefined, 60_000);
    try {
      for await (const envelope of this.subscription) {
        this.handle(envelope);
        if (envelope.payload.type === 'session.closed') {
          this.end ??= 'ended';
          break;
        }
      }
    } catch (error) {
      if (this.end === undefined) {
        const why = error instanceof Error ? error.message : 'unknown error';
        out.warn(`the session's event stream ended: ${neutraliseLine(why)}`);
        this.end = 'failed';
      }
    } finally {
      clearInterval(keepAlive);
      this.renderer.flush();
      this.asking?.ac.abort();
    }
    return this.end ?? 'detached';
  }

  private handle(envelope: EventEnvelope): void {
    this.renderer.push(envelope);
    const p = envelope.payload;
    if (p.type === 'interaction.requested') {
      this.enqueue({ interactionId: p.interactionId, request: p.request, expiresAt: p.expiresAt });
    } else if (p.type === 'interaction.settled') {
      // answered here, elsewhere or withdrawn: nobody is asked about it any more
      this.seen.add(p.interactionId);
      const at = this.queue.findIndex((q) => q.interactionId === p.interactionId);
      if (at >= 0) this.queue.splice(at, 1);
      if (this.asking?.id === p.interactionId) this.asking.ac.abort();
    }
  }

  private enqueue(pending: Pending): void {
    if (this.seen.has(pending.interactionId)) return;
    this.seen.add(pending.interactionId);
    if (this.options.terminal === undefined) {
      this.options.out.note(
        this.options.out.c.dim('  (no terminal to ask in: attach leaves this to whoever answers)'),
      );
      return;
    }
    this.queue.push(pending);
    this.next();
  }

  private next(): void {
    if (this.asking !== undefined || this.end !== undefined) return;
    const pending = this.queue.shift();
    if (pending === undefined) return;
    const ac = new AbortController();
    this.asking = { id: pending.interactionId, ac };
    void this.ask(pending, ac).finally(() => {
      this.asking = undefined;
      this.next();
    });
  }

  private async ask(pending: Pending, ac: AbortController): Promise<void> {
    const { out, runtime, sessionId, terminal } = this.options;
    if (terminal === undefined) return;
    this.renderer.flush();
    showRequest(out, pending.request, pending.expiresAt);
    let response;
    try {
      response = await promptForInteraction(pending.request, terminal, ac.signal);
    } catch (error) {
      if (error instanceof PromptInterrupted) this.detach();
      else if (!(error instanceof PromptAborted)) throw error;
      return;
    }
    if (ac.signal.aborted) return;
    // a session nobody runs would be taken over by a routed answer: never from here
    if ((await runtime.sessionOwners()).get(sessionId) !== 'elsewhere') {
      out.warn(
        '  the answer was not sent: no process runs this session now (`relvo-codex run --resume` continues it)',
      );
      return;
    }
    out.note(out.c.dim('  sent to the process that runs the session…'));
    try {
      await runtime.respond(sessionId, pending.interactionId, response);
    } catch (error) {
      if (this.end === undefined) out.warn(`  ${refusalLine(error)}`);
    }
  }
}
