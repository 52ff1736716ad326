import { describe, expect, it } from 'vitest';
import { InteractionRegistry } from '../../src/interactions/registry.js';
import { translatePermissionsRequest } from '../../src/interactions/native-permissions.js';
import { fakeOffer, fakeOwner, THREAD, TURN } from '../support/interaction-frames.js';
import { refOf } from '../support/registry-harness.js';
import { GRANTED_DIR_APPROVAL } from '../support/elicitation-frames.js';

const ROOT = '/work/ws';
const METHOD = 'item/permissions/requestApproval';

/** The request 0.171.0 sends for `request_permissions({file_system:{write:[…]}})`. */
function params(permissions: unknown = writeGranted(), patch: Record<string, unknown> = {}) {
  return {
    threadId: THREAD,
    turnId: TURN,
    itemId: 'call_perm_1',
    environmentId: 'local',
    startedAtMs: 1_795_981_663_876,
    cwd: ROOT,
    reason: 'need to write the report',
    permissions,
    ...patch,
  };
}
function writeGranted(path = `${ROOT}/granted`) {
  return {
    network: null,
    fileSystem: {
      read: null,
      write: [path],
      entries: [{ path: { type: 'path', path }, access: 'write' }],
    },
  };
}

function harness() {
  const owner = fakeOwner('run-1');
  const registry = new InteractionRegistry({
    bridges: { approvals: false, questions: false, permissions: true },
    workspaceRoot: ROOT,
    resolveOwner: () => ({ ok: true, owner }),
  });
  return { owner, registry };
}

describe('permission requests → approvals', () => {
  it('lists each path once, relative to the workspace, and offers turn and session scopes', () => {
    const { translation } = translatePermissionsRequest(params(), ROOT);
    expect(translation.ok).toBe(true);
    if (!translation.ok) return;
    expect(translation.request).toEqual(GRANTED_DIR_APPROVAL);
    expect(JSON.stringify(translation.request)).not.toContain(ROOT);
  });

  it('marks a path outside the workspace, warns first and raises the risk', () => {
    const { translation } = translatePermissionsRequest(params(writeGranted('/etc/app')), ROOT);
    if (!translation.ok) throw new Error('refused');
    expect(translation.request.subject.summary.startsWith('WARNING: reaches OUTSIDE')).toBe(true);
    expect(translation.request.subject.detail).toMatchObject({
      paths: [{ path: '../../etc/app', access: 'write', outsideWorkspace: true }],
      outsideWorkspace: true,
    });
    expect(translation.request.riskHint).toBe('high');
  });

  it('a network request is a network approval of high risk', () => {
    const { translation } = translatePermissionsRequest(
      params({ network: { enabled: true }, fileSystem: null }),
      ROOT,
    );
    if (!translation.ok) throw new Error('refused');
    expect(translation.request.subject.category).toBe('network');
    expect(translation.request.riskHint).toBe('high');
  });

  it('network and 60 paths: the summary names the network first, the detail lists every path', () => {
    const paths = Array.from(
      { length: 60 },
      (_, i) => `${ROOT}/data/a-rather-long-folder-name-${String(i)}`,
    );
    const { translation } = translatePermissionsRequest(
      params(
        { network: { enabled: true }, fileSystem: { read: paths, write: null } },
        {
          reason: 'sync with https://ann:s3cret@evil.example/x?token=abc',
        },
      ),
      ROOT,
    );
    if (!translation.ok) throw new Error('refused');
    const { summary, detail } = translation.request.subject;
    expect(summary).toBe(
      'Codex requests more sandbox permissions: NETWORK access and 60 paths (each is in the detail)',
    );
    expect(detail).toMatchObject({
      network: true,
      scopes: { once: 'turn', session: 'session' },
      reason: 'sync with https://[redacted]@evil.example/x?token=[redacted]',
    });
    expect(detail?.['paths']).toEqual(
      paths.map((_, i) => ({
        path: `data/a-rather-long-folder-name-${String(i)}`,
        access: 'read',
      })),
    );
  });

  it.each([
    ['malformed', params(writeGranted(), { extra: 1 })],
    ['environment_unsupported', params(writeGranted(), { environmentId: 'remote-1' })],
    ['no_requested_permission', params({ network: null, fileSystem: null })],
    [
      'permission_unsupported',
      params({
        fileSystem: {
          entries: [{ path: { type: 'glob_pattern', pattern: '**' }, access: 'read' }],
        },
      }),
    ],
    [
      'permission_unsupported',
      params({
        fileSystem: {
          entries: [{ path: { type: 'special', value: { kind: 'root' } }, access: 'write' }],
        },
      }),
    ],
  ])('refuses %s', (token, p) => {
    expect(translatePermissionsRequest(p, ROOT).translation).toEqual({ ok: false, token });
  });

  it.each([
    [{ kind: 'approval', decision: 'approved', mode: 'once' }, 'turn'],
    [{ kind: 'approval', decision: 'approved', mode: 'session' }, 'session'],
  ])('%j grants exactly what was asked for the %s', async (response, scope) => {
    const h = harness();
    const { offer, log } = fakeOffer(METHOD, params());
    expect(h.registry.handleServerRequest(offer)).toBe(true);
    const ref = refOf(h.owner.events[0]);
    await h.registry.respond(ref, response);
    expect(log.responded).toEqual([{ permissions: writeGranted(), scope }]);
  });

  it('a denial and a retirement both send the empty grant, once', async () => {
    for (const end of ['deny', 'retire'] as const) {
      const h = harness();
      const { offer, log } = fakeOffer(METHOD, params());
      h.registry.handleServerRequest(offer);
      const ref = refOf(h.owner.events[0]);
      if (end === 'deny') await h.registry.respond(ref, { kind: 'approval', decision: 'denied' });
      else h.registry.retireRun(h.owner);
      h.registry.retireRun(h.owner);
      expect(log.responded).toEqual([{ permissions: {}, scope: 'turn' }]);
    }
  });
});
