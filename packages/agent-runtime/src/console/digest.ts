/**
 * What the console shows of a session, folded from its event log alone: so the page can never
 * show something the log withholds (a provider's refs, options, environment stay out of it).
 * Pure and incremental: `apply` takes the envelopes in sequence order, one at a time.
 */
import type { EventEnvelope, PayloadOf } from '@relvo-labs/agent-runtime';
import { neutralise } from './unsafe.js';

/** A title's length in characters: a table cell's worth of the first prompt. */
export const TITLE_MAX = 80;

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export interface PendingInteraction {
  readonly sessionId: string;
  readonly interactionId: string;
  readonly turnId: string;
  readonly request: PayloadOf<'interaction.requested'>['request'];
  readonly expiresAt?: string;
  readonly requestedAt: string;
  readonly sequence: number;
}

export interface TurnTimings {
  readonly turnId: string;
  readonly startedAt: string;
  readonly settledAt?: string;
  readonly state?: string;
  readonly durationMs?: number;
}

export interface SessionDigestView {
  /** The first prompt's text, whitespace folded, unsafe characters made visible, cut. */
  readonly title?: string;
  readonly turns: number;
  readonly turnStates: Readonly<Record<string, number>>;
  readonly profiles: readonly string[];
  readonly providers: readonly string[];
  readonly usage: UsageTotals;
  readonly lastTurn?: TurnTimings;
  readonly closedAt?: string;
  readonly pendingInteractions: readonly PendingInteraction[];
  /** Runs the log shows started and not finished, oldest first. */
  readonly openRunIds: readonly string[];
}

type Usage = PayloadOf<'run.usage'>['usage'];
type TurnInput = PayloadOf<'turn.started'>['input'];

/** The prompt as one line: text parts, others by their type; undefined when it says nothing. */
export function titleOf(input: TurnInput): string | undefined {
  const text = input.parts
    .map((part) => (part.type === 'text' ? part.text : `[${part.type}]`))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return undefined;
  // cut by grapheme, so neither a surrogate pair nor a combined character is split
  const parts = Array.from(new Intl.Segmenter().segment(text), (g) => g.segment);
  const cut = parts.length > TITLE_MAX ? `${parts.slice(0, TITLE_MAX - 1).join('')}…` : text;
  return neutralise(cut);
}

export class SessionDigest {
  #reached = 0;
  #title: string | undefined;
  #turns = 0;
  readonly #turnStates = new Map<string, number>();
  readonly #profiles = new Set<string>();
  readonly #providers = new Set<string>();
  // each run.usage is the run's cumulative usage so far: the latest one per run counts
  readonly #usageByRun = new Map<string, Usage>();
  #lastTurn: TurnTimings | undefined;
  #closedAt: string | undefined;
  readonly #pending = new Map<string, PendingInteraction>();
  readonly #settled = new Set<string>();
  readonly #openRuns = new Set<string>();

  /** The last sequence folded in. */
  get reached(): number {
    return this.#reached;
  }

  apply(envelope: EventEnvelope): void {
    if (envelope.sequence !== this.#reached + 1) return;
    this.#reached = envelope.sequence;
    const p = envelope.payload;
    switch (p.type) {
      case 'turn.started':
        this.#turns += 1;
        this.#title ??= titleOf(p.input);
        this.#profiles.add(p.profile);
        this.#providers.add(p.providerId);
        this.#lastTurn = { turnId: p.turnId, startedAt: envelope.occurredAt };
        break;
      case 'turn.settled': {
        this.#turnStates.set(p.state, (this.#turnStates.get(p.state) ?? 0) + 1);
        const last = this.#lastTurn;
        if (last?.turnId === p.turnId) {
          const ms = Date.parse(envelope.occurredAt) - Date.parse(last.startedAt);
          this.#lastTurn = {
            ...last,
            settledAt: envelope.occurredAt,
            state: p.state,
            ...(Number.isFinite(ms) ? { durationMs: ms } : {}),
          };
        }
        break;
      }
      case 'run.started':
        if (envelope.runId !== undefined) this.#openRuns.add(envelope.runId);
        break;
      case 'run.finished':
        if (envelope.runId !== undefined) this.#openRuns.delete(envelope.runId);
        break;
      case 'run.usage':
        if (envelope.runId !== undefined) this.#usageByRun.set(envelope.runId, p.usage);
        break;
      case 'interaction.requested':
        this.#pending.set(p.interactionId, {
          sessionId: envelope.sessionId,
          interactionId: p.interactionId,
          turnId: p.turnId,
          request: p.request,
          ...(p.expiresAt === undefined ? {} : { expiresAt: p.expiresAt }),
          requestedAt: envelope.occurredAt,
          sequence: envelope.sequence,
        });
        break;
      case 'interaction.settled':
        this.#pending.delete(p.interactionId);
        this.#settled.add(p.interactionId);
        break;
      case 'session.closed':
        this.#closedAt = envelope.occurredAt;
        this.#pending.clear();
        this.#openRuns.clear();
        break;
      default:
        break;
    }
  }

  /** The log holds the session's `session.closed`. */
  get closed(): boolean {
    return this.#closedAt !== undefined;
  }

  /** What the log says of an interaction: undefined when it never asked for it. */
  statusOf(interactionId: string): 'pending' | 'settled' | undefined {
    if (this.#pending.has(interactionId)) return 'pending';
    return this.#settled.has(interactionId) ? 'settled' : undefined;
  }

  view(): SessionDigestView {
    const usage: UsageTotals = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    for (const u of this.#usageByRun.values()) {
      usage.inputTokens += u.inputTokens ?? 0;
      usage.outputTokens += u.outputTokens ?? 0;
      usage.totalTokens += u.totalTokens ?? 0;
    }
    return {
      ...(this.#title === undefined ? {} : { title: this.#title }),
      turns: this.#turns,
      turnStates: Object.fromEntries(this.#turnStates),
      profiles: [...this.#profiles],
      providers: [...this.#providers],
      usage,
      ...(this.#lastTurn === undefined ? {} : { lastTurn: this.#lastTurn }),
      ...(this.#closedAt === undefined ? {} : { closedAt: this.#closedAt }),
      pendingInteractions: [...this.#pending.values()],
      openRunIds: [...this.#openRuns],
    };
  }
}
