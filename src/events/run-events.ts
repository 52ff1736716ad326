/**
 * One turn's plan, diff and reasoning-summary notifications as `run.extension` events, under
 * the host's opt-ins. Owned by the turn's output (session/turn-output.ts). Each event is checked
 * against its kind's schema before it leaves: what does not fit is dropped, never half-sent.
 */
import { runExtensionPayloadSchema, type ProviderEventInput } from '@relvo-labs/agent-provider';
import type { InboundOf } from '../protocol/inbound.js';
import { bounded } from '../shared/workspace-redaction.js';
import { diffData } from './diff.js';
import { diffPathBase } from './repo-root.js';
import {
  CODEX_EVENT_BOUNDS,
  CODEX_EXTENSION_KINDS,
  CODEX_EXTENSION_NAMESPACE,
  type CodexEventsOptions,
  type CodexExtensionKind,
  type CodexPlanData,
} from './schemas.js';

/** codex's wire status (camelCase) → ours; anything else is not a plan we publish. */
const PLAN_STATUS: ReadonlyMap<string, CodexPlanData['steps'][number]['status']> = new Map([
  ['pending', 'pending'],
  ['inProgress', 'in_progress'],
  ['in_progress', 'in_progress'],
  ['completed', 'completed'],
]);

function extension(kind: CodexExtensionKind, data: unknown): ProviderEventInput | undefined {
  const parsed = CODEX_EXTENSION_KINDS[kind].safeParse(data);
  if (!parsed.success) return undefined;
  // and the SPI's own bounds on an extension's data
  const payload = runExtensionPayloadSchema.safeParse({
    type: 'run.extension',
    namespace: CODEX_EXTENSION_NAMESPACE,
    kind,
    data: parsed.data,
  });
  return payload.success ? { payload: payload.data } : undefined;
}

export function planEvent(frame: InboundOf<'turn/plan/updated'>): ProviderEventInput | undefined {
  const steps: CodexPlanData['steps'] = [];
  for (const item of frame.plan.slice(0, CODEX_EVENT_BOUNDS.planSteps)) {
    const status = PLAN_STATUS.get(item.status);
    if (status === undefined) return undefined;
    steps.push({ step: bounded(item.step, CODEX_EVENT_BOUNDS.planStep).text, status });
  }
  const data: CodexPlanData = { steps };
  const explanation = frame.explanation ?? '';
  if (explanation.length > 0)
    data.explanation = bounded(explanation, CODEX_EVENT_BOUNDS.planExplanation).text;
  if (frame.plan.length > steps.length) data.truncated = true;
  return extension('plan', data);
}

export class RunExtensionEvents {
  readonly #options: CodexEventsOptions;
  readonly #workspaceRoot: string;
  /** The last diff text published: codex repeats the same diff before turn/completed. */
  #lastDiff: string | undefined;

  constructor(options: CodexEventsOptions, workspaceRoot: string) {
    this.#options = options;
    this.#workspaceRoot = workspaceRoot;
  }

  plan(frame: InboundOf<'turn/plan/updated'>): ProviderEventInput | undefined {
    return this.#options.plan ? planEvent(frame) : undefined;
  }

  diff(frame: InboundOf<'turn/diff/updated'>): ProviderEventInput | undefined {
    const mode = this.#options.diff;
    if (mode === 'none' || frame.diff === this.#lastDiff) return undefined;
    this.#lastDiff = frame.diff;
    const root = this.#workspaceRoot;
    return extension('diff', diffData(frame.diff, root, mode === 'patch', diffPathBase(root)));
  }

  reasoningSummary(
    frame: InboundOf<'item/reasoning/summaryTextDelta'>,
  ): ProviderEventInput | undefined {
    if (!this.#options.reasoningSummary || frame.delta.length === 0) return undefined;
    return extension('reasoning_summary', {
      itemId: frame.itemId,
      summaryIndex: frame.summaryIndex,
      delta: bounded(frame.delta, CODEX_EVENT_BOUNDS.reasoningDelta).text,
    });
  }
}
