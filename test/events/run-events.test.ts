import { describe, expect, it } from 'vitest';
import { diffData, parseTurnDiff } from '../../src/events/diff.js';
import { RunExtensionEvents } from '../../src/events/run-events.js';
import {
  CODEX_EVENT_BOUNDS,
  codexEventsOptionsSchema,
  type CodexEventsOptions,
} from '../../src/events/schemas.js';
import { createCodexProvider } from '../../src/index.js';
import { decodeNotification, type InboundOf } from '../../src/protocol/inbound.js';

const ROOT = '/w/space';
const scope = { threadId: 'th', turnId: 'tu' };

function frame<
  M extends 'turn/plan/updated' | 'turn/diff/updated' | 'item/reasoning/summaryTextDelta',
>(method: M, params: Record<string, unknown>): InboundOf<M> {
  const decoded = decodeNotification(method, { ...scope, ...params });
  if (decoded.method !== method) throw new Error(`did not decode: ${method}`);
  return decoded as InboundOf<M>;
}

const all: CodexEventsOptions = { plan: true, diff: 'patch', reasoningSummary: true };

const ADD_THEN_EDIT = [
  'diff --git a/notes/a.txt b/notes/a.txt',
  'new file mode 100644',
  'index 0000000..1111111',
  '--- /dev/null',
  '+++ b/notes/a.txt',
  '@@ -0,0 +1,2 @@',
  '+--- looks like a header',
  '+two',
  'diff --git a/old.txt b/old.txt',
  'index 2222222..3333333 100644',
  '--- a/old.txt',
  '+++ b/old.txt',
  '@@ -1,3 +1,2 @@',
  ' keep',
  '-+++ gone',
  '-gone too',
  '+new',
  '\\ No newline at end of file',
  'diff --git a/gone.txt b/gone.txt',
  'deleted file mode 100644',
  '--- a/gone.txt',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-bye',
  '',
].join('\n');

describe('turn diff', () => {
  it('counts lines by the hunk headers, so content shaped like a header is content', () => {
    expect(parseTurnDiff(ADD_THEN_EDIT)).toEqual([
      { path: 'notes/a.txt', change: 'add', added: 2, removed: 0 },
      { path: 'old.txt', change: 'update', added: 1, removed: 2 },
      { path: 'gone.txt', change: 'delete', added: 0, removed: 1 },
    ]);
  });

  it('summary carries no patch text; a path outside the workspace is marked and withholds the patch', () => {
    expect(diffData(ADD_THEN_EDIT, ROOT, false, ROOT)).toEqual({
      files: [
        { path: 'notes/a.txt', change: 'add', added: 2, removed: 0 },
        { path: 'old.txt', change: 'update', added: 1, removed: 2 },
        { path: 'gone.txt', change: 'delete', added: 0, removed: 1 },
      ],
      added: 3,
      removed: 3,
    });
    const outside =
      'diff --git a//etc/x b//etc/x\n--- a//etc/x\n+++ b//etc/x\n@@ -1 +1 @@\n-a\n+b\n';
    const data = diffData(outside, ROOT, true, ROOT);
    expect(data.files).toEqual([
      { path: '<outside-workspace>', change: 'update', added: 1, removed: 1 },
    ]);
    expect(data.patch).toBeUndefined();
    expect(data.patchWithheld).toBe('outside_workspace');
    expect(JSON.stringify(data)).not.toContain('/etc/x');
  });

  it('an absolute path inside the workspace is made relative, in the patch text too', () => {
    const inside = `diff --git a/${ROOT}/n.txt b/${ROOT}/n.txt\n--- a/${ROOT}/n.txt\n+++ b/${ROOT}/n.txt\n@@ -1 +1 @@\n-a\n+b\n`;
    const data = diffData(inside, ROOT, true, ROOT);
    expect(data.files[0]?.path).toBe('n.txt');
    expect(data.patch).not.toContain(ROOT);
  });

  it('a patch over the bound is withheld as too large', () => {
    const line = `+${'x'.repeat(1000)}`;
    const n = Math.ceil(CODEX_EVENT_BOUNDS.diffPatch / 1000) + 1;
    const big = `diff --git a/b.txt b/b.txt\n--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1,${n} @@\n${Array(n).fill(line).join('\n')}\n`;
    const data = diffData(big, ROOT, true, ROOT);
    expect(data).toMatchObject({ added: n, patchWithheld: 'too_large' });
    expect(data.patch).toBeUndefined();
  });

  it('a repeated diff is published once', () => {
    const events = new RunExtensionEvents(all, ROOT);
    const f = frame('turn/diff/updated', { diff: ADD_THEN_EDIT });
    expect(events.diff(f)).toBeDefined();
    expect(events.diff(f)).toBeUndefined();
  });
});

describe('plan and reasoning summary', () => {
  it('maps the wire statuses; an unknown status drops the update rather than guess', () => {
    const events = new RunExtensionEvents(all, ROOT);
    const ok = events.plan(
      frame('turn/plan/updated', {
        explanation: null,
        plan: [
          { step: 'a', status: 'inProgress' },
          { step: 'b', status: 'pending' },
        ],
      }),
    );
    expect(ok?.payload).toEqual({
      type: 'run.extension',
      namespace: 'codex',
      kind: 'plan',
      data: {
        steps: [
          { step: 'a', status: 'in_progress' },
          { step: 'b', status: 'pending' },
        ],
      },
    });
    const bad = frame('turn/plan/updated', { plan: [{ step: 'x', status: 'done' }] });
    expect(events.plan(bad)).toBeUndefined();
  });

  it('bounds a long plan and marks it truncated', () => {
    const events = new RunExtensionEvents(all, ROOT);
    const plan = Array.from({ length: CODEX_EVENT_BOUNDS.planSteps + 5 }, (_, i) => ({
      step: `s${i}`,
      status: 'pending',
    }));
    const event = events.plan(frame('turn/plan/updated', { plan }));
    if (event?.payload.type !== 'run.extension') throw new Error('no plan event');
    expect(event.payload.data['truncated']).toBe(true);
    expect(event.payload.data['steps']).toHaveLength(CODEX_EVENT_BOUNDS.planSteps);
  });

  it('publishes nothing the host did not opt into (all off by default)', () => {
    const off = new RunExtensionEvents(codexEventsOptionsSchema.parse({}), ROOT);
    expect(off.plan(frame('turn/plan/updated', { plan: [] }))).toBeUndefined();
    expect(off.diff(frame('turn/diff/updated', { diff: ADD_THEN_EDIT }))).toBeUndefined();
    const delta = { itemId: 'rs', delta: 'summary', summaryIndex: 0 };
    expect(off.reasoningSummary(frame('item/reasoning/summaryTextDelta', delta))).toBeUndefined();
    const on = new RunExtensionEvents(all, ROOT);
    expect(on.reasoningSummary(frame('item/reasoning/summaryTextDelta', delta))?.payload).toEqual({
      type: 'run.extension',
      namespace: 'codex',
      kind: 'reasoning_summary',
      data: delta,
    });
  });

  it('raw reasoning has no schema: it decodes to the unknown member and is never applied', () => {
    const raw = decodeNotification('item/reasoning/textDelta', {
      ...scope,
      itemId: 'rs',
      delta: 'raw',
      contentIndex: 0,
    });
    expect(raw.method).toBe('unknown');
  });

  it('a runtime profile sets events through providerOptions; an unknown key is named', () => {
    const schema = createCodexProvider.optionSchemas.providerOptions;
    if (schema === undefined) throw new Error('the provider declares its options schema');
    expect(schema.safeParse({ events: { plan: true, diff: 'summary' } }).success).toBe(true);
    const parsed = schema.safeParse({ events: { plans: true } });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain('plans');
  });
});
