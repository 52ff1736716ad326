/** The recorded baseline transcripts replayed through the interaction layer. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { translateCommandApproval } from '../../src/interactions/native-approval.js';
import { translateUserInput } from '../../src/interactions/native-question.js';
import { InteractionRegistry } from '../../src/interactions/registry.js';
import { fakeOffer, fakeOwner, type FakeOwner } from '../support/interaction-frames.js';
import { transcriptPath } from '../support/replay.js';

interface Frame {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}
interface Line {
  dir: 'c2s' | 's2c';
  frame: Frame;
}

function load(scenario: string): Line[] {
  return readFileSync(transcriptPath(scenario), 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as Line);
}

function serverRequest(lines: Line[], method: string): Frame {
  const found = lines.find(
    (l) => l.dir === 's2c' && l.frame.method === method && l.frame.id !== undefined,
  );
  if (found === undefined) throw new Error(`no ${method} in the transcript`);
  return found.frame;
}

function replyTo(lines: Line[], id: string | number): Frame {
  const found = lines.find(
    (l) => l.dir === 'c2s' && l.frame.id === id && l.frame.method === undefined,
  );
  if (found === undefined) throw new Error('no recorded reply');
  return found.frame;
}

function resolvedFor(
  lines: Line[],
  id: string | number,
): { threadId: string; requestId: string | number } {
  const found = lines.find(
    (l) => l.frame.method === 'serverRequest/resolved' && l.frame.params?.requestId === id,
  );
  if (found === undefined) throw new Error('no serverRequest/resolved');
  return found.frame.params as { threadId: string; requestId: string | number };
}

function registryFor(owner: FakeOwner): InteractionRegistry<FakeOwner> {
  return new InteractionRegistry<FakeOwner>({
    bridges: { approvals: true, questions: true },
    resolveOwner: () => ({ ok: true, owner }),
  });
}

const APPROVAL = 'item/commandExecution/requestApproval';

describe('recorded approvals (approval_accept / approval_decline / approval_cancel)', () => {
  it.each(['approval_accept', 'approval_decline', 'approval_cancel'])(
    '%s: the real frame is accepted',
    (scenario) => {
      const frame = serverRequest(load(scenario), APPROVAL);
      const result = translateCommandApproval(frame.params);
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.request.allowedModes).toEqual(['once', 'session']);
      expect(result.request.riskHint).toBe('high');
      expect(result.request.subject.detail).toMatchObject({
        cwd: '<workspace>',
        reason: 'Scripted test wants to run echo',
      });
      expect(result.correlation).toEqual({
        threadId: frame.params?.threadId,
        turnId: frame.params?.turnId,
      });
    },
  );

  it.each([
    ['approval_accept', { kind: 'approval', decision: 'approved', mode: 'once' }],
    ['approval_decline', { kind: 'approval', decision: 'denied' }],
  ])(
    '%s: the neutral answer produces exactly the recorded native reply, then resolved confirms',
    async (scenario, response) => {
      const lines = load(scenario);
      const frame = serverRequest(lines, APPROVAL);
      const id = frame.id ?? -1;
      const owner = fakeOwner('run');
      const registry = registryFor(owner);
      const offered = fakeOffer(APPROVAL, frame.params, id);
      expect(registry.handleServerRequest(offered.offer)).toBe(true);
      const payload = owner.events[0]?.payload;
      if (payload?.type !== 'interaction.requested')
        throw new Error('expected interaction.requested');
      await registry.respond(payload.providerRef, response);
      expect(offered.log.responded).toEqual([replyTo(lines, id).result]);
      const resolved = resolvedFor(lines, id);
      expect(registry.withdraw(resolved.requestId, resolved.threadId)).toBe('confirmed');
      expect(owner.events).toHaveLength(1);
    },
  );
});

describe('recorded request_user_input (feature-flag mode)', () => {
  it('the real frame is isBlocking:false and refused whole as not_blocking; resolved is then ignored', () => {
    const lines = load('request_user_input');
    const frame = serverRequest(lines, 'item/tool/requestUserInput');
    expect(translateUserInput(frame.params)).toEqual({ ok: false, token: 'not_blocking' });
    const owner = fakeOwner('run');
    const registry = registryFor(owner);
    const offered = fakeOffer('item/tool/requestUserInput', frame.params, frame.id ?? -1);
    registry.handleServerRequest(offered.offer);
    expect(offered.log.rejected[0]?.code).toBe(-32602);
    expect(replyTo(lines, frame.id ?? -1).error?.code).toBe(-32602);
    const resolved = resolvedFor(lines, frame.id ?? -1);
    expect(registry.withdraw(resolved.requestId, resolved.threadId)).toBe('ignored');
    expect(owner.events).toEqual([]);
  });

  it('the same questions in blocking (Plan) mode translate', () => {
    const frame = serverRequest(load('request_user_input'), 'item/tool/requestUserInput');
    const result = translateUserInput({ ...frame.params, isBlocking: true });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.request.questions[0]?.choices).toEqual([
      { value: 'o1', label: 'Red', description: 'Loud.' },
      { value: 'o2', label: 'Blue', description: 'Calm.' },
    ]);
  });
});
