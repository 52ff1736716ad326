/**
 * Scenarios for plans, diffs and reasoning summaries (ADR-0039): what codex sends for an
 * `update_plan` call, for patches applied in one turn, and for a reasoning item with a summary
 * and raw reasoning text.
 */
import {
  execCommandStep,
  reasoningStep,
  scriptedUsage,
  textStep,
  updatePlanStep,
} from '../../src/testing/index.js';
import type { Scenario } from './scenario-types.js';

const PLAN = [
  { step: 'Read the code', status: 'completed' },
  { step: 'Write the fix', status: 'in_progress' },
  { step: 'Run the tests', status: 'pending' },
] as const;

const NOTE = 'notes/hello.txt';
const patch = (body: string): string =>
  `apply_patch <<'EOF'\n*** Begin Patch\n${body}\n*** End Patch\nEOF\n`;

export const EVENTS_SCENARIOS: readonly Scenario[] = [
  {
    name: 'plan_update',
    summary:
      'tools.update_plan.enabled=true; the model calls update_plan twice (with and without an explanation), then text',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    extraConfig: ['tools.update_plan.enabled=true'],
    steps: [
      updatePlanStep(PLAN, { explanation: 'Three steps', callId: 'call_plan_1' }),
      updatePlanStep(
        PLAN.map((p) => ({ ...p, status: 'completed' as const })),
        { callId: 'call_plan_2' },
      ),
      textStep(['Planned', '.'], { itemId: 'msg_plan', responseId: 'resp_plan' }),
    ],
    turns: [{ text: 'make a plan' }],
  },
  {
    name: 'turn_diff',
    summary: `never/workspace-write: apply_patch adds ${NOTE}, a second patch updates it, then text`,
    approvalPolicy: 'never',
    sandbox: 'workspace-write',
    steps: [
      execCommandStep(patch(`*** Add File: ${NOTE}\n+LINE ONE`), {
        callId: 'call_patch_add',
        usage: scriptedUsage(500, 20, 0, 0),
      }),
      execCommandStep(
        patch(`*** Update File: ${NOTE}\n@@\n-LINE ONE\n+LINE ONE CHANGED\n+LINE TWO`),
        { callId: 'call_patch_upd', usage: scriptedUsage(520, 20, 0, 0) },
      ),
      textStep(['Patched', '.'], { itemId: 'msg_diff', responseId: 'resp_diff' }),
    ],
    turns: [{ text: 'edit the note' }],
  },
  {
    name: 'reasoning_summary',
    summary: 'a reasoning item streaming two summary parts and raw reasoning text, then an answer',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      reasoningStep(['**Thinking** about the task', 'Second part'], {
        raw: 'raw chain of thought',
        responseId: 'resp_reason',
        reasoningId: 'rs_1',
      }),
    ],
    turns: [{ text: 'think' }],
  },
];
