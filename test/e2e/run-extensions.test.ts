/**
 * Plans, diffs and reasoning summaries (ADR-0039) on the real binary with the scripted model:
 * what a host receives as `run.extension` events under each opt-in, and what it never receives
 * (raw reasoning, patch text unless asked for, paths outside the workspace).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { providerEventInputSchema } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { applyPatchCommand } from '../../scripts/lib/scenarios-tools.js';
import { CODEX_EXTENSION_KINDS } from '../../src/events/schemas.js';
import type { CodexProviderOptions } from '../../src/index.js';
import {
  execCommandStep,
  functionCallOutput,
  reasoningStep,
  scriptedUsage,
  textStep,
  updatePlanStep,
} from '../../src/testing/index.js';
import { textInput } from '../support/provider-harness.js';
import {
  approveOnce,
  openRealCodex,
  recordingSink,
  waitForApproval,
  type RealCodex,
} from '../support/real-codex.js';

type Events = CodexProviderOptions['events'];

function extensions(sink: ReturnType<typeof recordingSink>, kind: string): unknown[] {
  return sink
    .ofType('run.extension')
    .filter((e) => e.namespace === 'codex' && e.kind === kind)
    .map((e) => e.data);
}

async function run(codex: RealCodex, runRef: string): Promise<ReturnType<typeof recordingSink>> {
  const sink = recordingSink();
  const started = await codex.session.startRun({ input: textInput('go'), sink, runRef });
  expect(await started.completion).toEqual({ outcome: 'succeeded' });
  for (const e of sink.events) expect(providerEventInputSchema.safeParse(e).success).toBe(true);
  for (const e of sink.ofType('run.extension')) {
    const schema = CODEX_EXTENSION_KINDS[e.kind as keyof typeof CODEX_EXTENSION_KINDS];
    expect(schema.safeParse(e.data).success).toBe(true);
  }
  return sink;
}

const PLAN = [
  { step: 'Read the code', status: 'completed' },
  { step: 'Write the fix', status: 'in_progress' },
  { step: 'Run the tests', status: 'pending' },
] as const;

describe('plans', () => {
  it('events.plan: the model gets update_plan, and each update arrives as the whole plan', async () => {
    const codex = await openRealCodex({ events: { plan: true } });
    codex.server.enqueue(
      updatePlanStep(PLAN, { explanation: 'Two steps', callId: 'call_plan_1' }),
      updatePlanStep(
        PLAN.map((p) => ({ ...p, status: 'completed' as const })),
        { callId: 'call_plan_2' },
      ),
      textStep('planned', { usage: scriptedUsage(5, 1, 0, 0) }),
    );
    const sink = await run(codex, 'plan');
    expect(JSON.stringify(codex.server.requests[0]?.body)).toContain('update_plan');
    expect(extensions(sink, 'plan')).toEqual([
      {
        explanation: 'Two steps',
        steps: [
          { step: 'Read the code', status: 'completed' },
          { step: 'Write the fix', status: 'in_progress' },
          { step: 'Run the tests', status: 'pending' },
        ],
      },
      { steps: PLAN.map((p) => ({ step: p.step, status: 'completed' })) },
    ]);
  });

  it('by default: no plan event and no update_plan tool offered', async () => {
    const codex = await openRealCodex();
    codex.server.enqueue(
      updatePlanStep(PLAN, { callId: 'call_plan_1' }),
      textStep('planned', { usage: scriptedUsage(5, 1, 0, 0) }),
    );
    const sink = await run(codex, 'noplan');
    expect(sink.ofType('run.extension')).toEqual([]);
    const tools = JSON.stringify(codex.server.requests[0]?.body ?? {});
    expect(tools).not.toContain('update_plan');
    expect(functionCallOutput(codex.server.requests[1]!, 'call_plan_1')).toBeDefined();
  });
});

const NOTE = 'notes/hello.txt';
const UPDATE = `apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: ${NOTE}\n@@\n-LINE ONE\n+LINE ONE CHANGED\n+LINE TWO\n*** End Patch\nEOF\n`;

async function patchTwice(events: Events): Promise<ReturnType<typeof recordingSink>> {
  const codex = await openRealCodex({ events, sandboxMode: 'workspace-write' });
  codex.server.enqueue(
    execCommandStep(applyPatchCommand(NOTE, 'LINE ONE'), { callId: 'call_add' }),
    execCommandStep(UPDATE, { callId: 'call_upd' }),
    textStep('patched', { usage: scriptedUsage(5, 1, 0, 0) }),
  );
  const sink = await run(codex, 'diff');
  expect(readFileSync(join(codex.iso.workspace, NOTE), 'utf8')).toBe(
    'LINE ONE CHANGED\nLINE TWO\n',
  );
  expect(JSON.stringify(sink.events)).not.toContain(codex.iso.workspace);
  return sink;
}

describe('diffs', () => {
  it("events.diff 'summary': paths and line counts of the turn so far, no repeats, no patch text", async () => {
    const sink = await patchTwice({ diff: 'summary' });
    const diffs = extensions(sink, 'diff');
    expect(diffs[0]).toEqual({
      files: [{ path: NOTE, change: 'add', added: 1, removed: 0 }],
      added: 1,
      removed: 0,
    });
    expect(diffs.at(-1)).toEqual({
      files: [{ path: NOTE, change: 'add', added: 2, removed: 0 }],
      added: 2,
      removed: 0,
    });
    expect(diffs).toHaveLength(2);
    expect(JSON.stringify(sink.events)).not.toContain('LINE TWO');
  });

  it("events.diff 'patch': the patch text too", async () => {
    const sink = await patchTwice({ diff: 'patch' });
    const last = extensions(sink, 'diff').at(-1) as { patch?: string };
    expect(last.patch).toContain('+LINE ONE CHANGED');
    expect(last.patch).toContain(NOTE);
  });

  it('by default: no diff event', async () => {
    const sink = await patchTwice({});
    expect(sink.ofType('run.extension')).toEqual([]);
  });
});

describe('reasoning summaries', () => {
  const RAW = 'RAW-CHAIN-OF-THOUGHT-canary';

  async function reason(events: Events): Promise<ReturnType<typeof recordingSink>> {
    const codex = await openRealCodex({ events });
    codex.server.enqueue(
      reasoningStep(['**Thinking** about the task', 'Second part'], { raw: RAW }),
    );
    const sink = await run(codex, 'reason');
    const all = JSON.stringify(sink.events) + JSON.stringify(codex.sessionSink.events);
    expect(all).not.toContain(RAW);
    return sink;
  }

  it('events.reasoningSummary: the summary as it streams, never the raw reasoning', async () => {
    const sink = await reason({ reasoningSummary: true });
    const parts = extensions(sink, 'reasoning_summary') as {
      summaryIndex: number;
      delta: string;
    }[];
    expect(parts.map((p) => [p.summaryIndex, p.delta])).toEqual([
      [0, '**Thinking** about the task'],
      [1, 'Second part'],
    ]);
  });

  it('by default: nothing of the reasoning', async () => {
    const sink = await reason({});
    expect(sink.ofType('run.extension')).toEqual([]);
    expect(JSON.stringify(sink.events)).not.toContain('Thinking');
  });
});

describe('a diff touching a file outside the workspace', () => {
  it("the path is marked, the patch text withheld, the outside location never shown (diff: 'patch')", async () => {
    const codex = await openRealCodex({
      events: { diff: 'patch' },
      fileChanges: 'bridge',
      outsideWorkspaceChanges: 'ask',
      sandboxMode: 'workspace-write',
    });
    const outsideDir = join(dirname(codex.iso.workspace), 'outside-canary');
    mkdirSync(outsideDir, { recursive: true });
    codex.server.enqueue(
      execCommandStep(applyPatchCommand('../outside-canary/f.txt', 'OUTSIDE-LINE'), {
        callId: 'call_out',
      }),
      textStep('done', { usage: scriptedUsage(5, 1, 0, 0) }),
    );
    const sink = recordingSink();
    const started = await codex.session.startRun({ input: textInput('go'), sink, runRef: 'out' });
    const requested = await waitForApproval(sink, 'the outside patch approval');
    await approveOnce(codex, requested.providerRef);
    expect(await started.completion).toEqual({ outcome: 'succeeded' });
    expect(readFileSync(join(outsideDir, 'f.txt'), 'utf8')).toBe('OUTSIDE-LINE\n');
    const diffs = extensions(sink, 'diff') as { files: { path: string }[] }[];
    expect(diffs.length).toBeGreaterThan(0);
    for (const diff of diffs) {
      expect(diff).toMatchObject({ patchWithheld: 'outside_workspace' });
      expect(diff.files.map((f) => f.path)).toEqual(['<outside-workspace>']);
    }
    const published = JSON.stringify(sink.ofType('run.extension'));
    expect(published).not.toContain('outside-canary');
    expect(published).not.toContain('OUTSIDE-LINE');
    expect(published).not.toContain(dirname(codex.iso.workspace));
  });
});

describe('a workspace inside a larger repository', () => {
  it("codex counts the diff's paths from the repository: they are shown from the workspace, the patch too", async () => {
    const codex = await openRealCodex({
      events: { diff: 'patch' },
      sandboxMode: 'workspace-write',
    });
    // the folder above the workspace is a repository's root (a .git entry is what codex looks for)
    mkdirSync(join(dirname(codex.iso.workspace), '.git'), { recursive: true });
    codex.server.enqueue(
      execCommandStep(applyPatchCommand('in.txt', 'INSIDE-LINE'), { callId: 'call_in' }),
      textStep('done', { usage: scriptedUsage(5, 1, 0, 0) }),
    );
    const sink = recordingSink();
    const started = await codex.session.startRun({ input: textInput('go'), sink, runRef: 'in' });
    expect(await started.completion).toEqual({ outcome: 'succeeded' });
    const diffs = extensions(sink, 'diff') as { files: { path: string }[]; patch?: string }[];
    expect(diffs.length).toBeGreaterThan(0);
    for (const diff of diffs) {
      expect(diff.files.map((f) => f.path)).toEqual(['in.txt']);
      expect(diff.patch).toContain('+++ b/in.txt');
      expect(diff.patch).toContain('+INSIDE-LINE');
    }
    const published = JSON.stringify(sink.ofType('run.extension'));
    expect(published).not.toContain(basename(codex.iso.workspace) + '/in.txt');
  });
});
