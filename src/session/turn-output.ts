/**
 * What one bound turn's frames produce: neutral events out, and the run's single settlement on
 * its own `turn/completed`. Owns the turn's tool activity, held invocations, announced file
 * changes, usage and retry count; switches on the notification the edge decoded, and parses
 * nothing itself. Used only by the run that owns it (`run.ts`).
 */
import type { ProviderEventInput, ProviderRunTermination } from '@relvo-labs/agent-provider';
import type { InboundNotification, ServerRequestScope, UsageTotals } from '../protocol/inbound.js';
import type { CodexFileChangeItem } from '../protocol/items.js';
import type { UpstreamProviderCode } from '../protocol/provider-codes.js';
import { RunExtensionEvents } from '../events/run-events.js';
import type { CodexEventsOptions } from '../events/schemas.js';
import type { ServerRequestOffer } from '../rpc/client.js';
import { FileChangeMemory } from './file-changes.js';
import { HeldInvocations } from './held-invocations.js';
import { McpCallsInFlight, type McpCallInFlight } from './mcp-calls.js';
import { RunUsage } from './run-usage.js';
import { turnStalled } from './stall.js';
import { ToolActivityTracker } from './tool-activity.js';
import {
  midTurnFailure,
  terminationOfCompletedTurn,
  translateAgentMessageDelta,
  translateMidTurnError,
} from './translate.js';

/** codex's retry notices in this run: how many, and the last one's upstream code. */
export interface RunRetries {
  readonly count: number;
  readonly lastCause: UpstreamProviderCode | undefined;
}

/** Per-run opt-ins: what each new run tracks. */
export interface RunFeatures {
  readonly workspaceRoot: string;
  readonly toolActivity: boolean;
  readonly fileChanges: boolean;
  readonly fileReferences?: boolean;
  /** Plan, diff and reasoning-summary events (ADR-0039); undefined publishes none. */
  readonly events?: CodexEventsOptions;
}

/** The run as its output sees it. */
export interface OutputTarget {
  emit(event: ProviderEventInput): void;
  settle(termination: ProviderRunTermination): boolean;
  readonly interruptReason: string | undefined;
  /** Whether the stall watchdog fired (an interrupted outcome is then a stall failure). */
  readonly stalled: boolean;
}

export class TurnOutput {
  readonly #run: OutputTarget;
  readonly #usage: RunUsage;
  readonly #toolActivity: ToolActivityTracker | undefined;
  /** With tool activity: the `invoked` of commands that wait for their approval. */
  readonly #held = new HeldInvocations();
  readonly #fileChanges: FileChangeMemory | undefined;
  readonly #mcpCalls = new McpCallsInFlight();
  readonly #extensions: RunExtensionEvents | undefined;
  #retries: RunRetries = { count: 0, lastCause: undefined };

  constructor(run: OutputTarget, threadTotal: UsageTotals, features: RunFeatures | undefined) {
    this.#run = run;
    this.#usage = new RunUsage(threadTotal);
    if (features?.toolActivity === true) {
      this.#toolActivity = new ToolActivityTracker(features.workspaceRoot);
    }
    if (features?.fileChanges === true) this.#fileChanges = new FileChangeMemory();
    if (features?.events !== undefined) {
      this.#extensions = new RunExtensionEvents(features.events, features.workspaceRoot);
    }
  }

  get retries(): RunRetries {
    return this.#retries;
  }

  /** A patch announced on this run's turn, for the file-change bridge. */
  fileChange(turnId: string, itemId: string): CodexFileChangeItem | undefined {
    return this.#fileChanges?.find(turnId, itemId);
  }

  /** The one MCP tool call in flight to `server`, for a tool-call approval that names no tool. */
  mcpCall(server: string): McpCallInFlight | undefined {
    return this.#mcpCalls.only(server);
  }

  /** A usage update of another turn of the thread: never the run's (run-usage.ts). */
  otherTurnUsage(threadTotal: UsageTotals): void {
    this.#usage.otherTurn(threadTotal);
  }

  /** A command approval on its way to the host: a held `invoked` follows its approval. */
  observe(offer: ServerRequestOffer, scope: ServerRequestScope): ServerRequestOffer {
    return this.#held.observe(offer, scope, (event) => {
      this.#run.emit(event);
    });
  }

  apply(frame: InboundNotification): void {
    const run = this.#run;
    switch (frame.method) {
      case 'item/agentMessage/delta':
        for (const event of translateAgentMessageDelta(frame)) run.emit(event);
        return;
      case 'thread/tokenUsage/updated': {
        const event = this.#usage.update(frame.total);
        if (event !== undefined) run.emit(event);
        return;
      }
      case 'item/started': {
        this.#fileChanges?.remember(frame.turnId, frame.tool);
        this.#mcpCalls.started(frame.tool);
        const event = this.#toolActivity?.started(frame.tool);
        if (event === undefined) return;
        // a command waiting for its approval is not invoked yet (held-invocations.ts)
        if (frame.awaitsApproval && this.#held.hold(frame.itemId, event)) return;
        run.emit(event);
        return;
      }
      case 'item/completed': {
        this.#held.forget(frame.itemId);
        this.#mcpCalls.completed(frame.itemId);
        const event = this.#toolActivity?.completed(frame.tool);
        if (event !== undefined) run.emit(event);
        return;
      }
      case 'error': {
        const failure = midTurnFailure(frame);
        if (frame.retrying) {
          this.#retries = { count: this.#retries.count + 1, lastCause: failure.providerCode };
        }
        run.emit(translateMidTurnError(failure, frame.retrying, this.#retries.count));
        return;
      }
      case 'turn/completed': {
        const termination = terminationOfCompletedTurn(frame);
        // our stall interrupt is not a person's action: the run failed (ADR-0008)
        if (termination.outcome === 'interrupted' && run.stalled) {
          run.settle(turnStalled(this.#retries));
          return;
        }
        // the server's status is final; our interrupt only contributes its reason
        const reason = run.interruptReason;
        run.settle(
          termination.outcome === 'interrupted' && reason !== undefined
            ? { outcome: 'interrupted', reason }
            : termination,
        );
        return;
      }
      case 'turn/plan/updated':
        this.#emit(this.#extensions?.plan(frame));
        return;
      case 'turn/diff/updated':
        this.#emit(this.#extensions?.diff(frame));
        return;
      case 'item/reasoning/summaryTextDelta':
        this.#emit(this.#extensions?.reasoningSummary(frame));
        return;
      case 'turn/started':
      case 'serverRequest/resolved':
      case 'account/rateLimits/updated':
      case 'unknown':
        // read for correlation only
        return;
    }
  }

  #emit(event: ProviderEventInput | undefined): void {
    if (event !== undefined) this.#run.emit(event);
  }
}
