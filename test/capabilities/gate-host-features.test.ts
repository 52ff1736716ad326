/**
 * The capability gate for what a host builds on (ADR-0042, docs/compatibility.md): on a release
 * the map says lacks them, host tools and `mcpServers` are refused at `createSession` before
 * `thread/start`, `revert`, `history` and `injectContext` at the call before codex is asked,
 * and `login` before `account/login/start`, each `capability_unsupported` naming the feature.
 * No reviewed release lacks one, so the map's first release is doctored here only.
 */
import { describe, expect, it, vi } from 'vitest';
import { CODEX_FEATURES, type CodexFeature } from '../../src/capabilities/features.js';
import { ReleaseCapabilities } from '../../src/capabilities/gate.js';
import { CODEX_APP_SERVER_MIN_VERSION } from '../../src/constants.js';
import type { CodexProviderOptions } from '../../src/options.js';
import { LOOKUP_TICKET } from '../../scripts/lib/scenarios-host.js';
import { createProviderHarness, WORKSPACE } from '../support/provider-harness.js';
import { count, reply, THREAD } from '../support/provider-frames.js';
import { refusal, unsupported } from '../support/doctored-releases.js';
import { recordedUserAgentOf } from '../support/releases.js';

const OLD = CODEX_APP_SERVER_MIN_VERSION;
// hoisted with the mock below, which cannot read this file's other bindings
const LACKING = vi.hoisted((): readonly CodexFeature[] => [
  'hostTools',
  'injectContext',
  'session.revert',
  'mcpServers',
  'login',
  'session.history',
]);

vi.mock('../../src/capabilities/releases.js', async (importOriginal) => {
  const { firstReleaseLacking } = await import('../support/doctored-releases.js');
  return firstReleaseLacking(await importOriginal(), LACKING);
});

async function initialize(h: ReturnType<typeof createProviderHarness>): Promise<void> {
  await reply(h.transport, 'initialize', {
    userAgent: recordedUserAgentOf(OLD),
    codexHome: '/home/replay/.codex',
  });
}

describe('a release that lacks what a host builds on', () => {
  it('host tools and mcpServers are refused at createSession, before thread/start', async () => {
    const cases: [Omit<CodexProviderOptions, 'transport'>, CodexFeature, boolean][] = [
      [{ experimentalApi: true }, 'hostTools', true],
      [
        { mcpServers: [{ name: 'hosted', command: 'node', tools: 'approve' }] },
        'mcpServers',
        false,
      ],
    ];
    for (const [options, feature, tools] of cases) {
      const h = createProviderHarness(options);
      const opening = h.provider.createSession({
        options: {},
        workspace: { root: WORKSPACE, ownership: 'borrowed' },
        sink: h.sessionSink,
        ...(tools ? { tools: [LOOKUP_TICKET] } : {}),
      });
      opening.catch(() => undefined);
      await initialize(h);
      expect(await refusal(opening)).toMatchObject(unsupported(feature));
      expect(count(h.transport, 'thread/start')).toBe(0);
    }
  });

  it('revert, history and injectContext are refused at the call; codex is never asked', async () => {
    const h = createProviderHarness({ persistence: 'thread' });
    const opening = h.openSession();
    await initialize(h);
    await reply(h.transport, 'thread/start', { thread: { id: THREAD, ephemeral: false } });
    const session = await opening;
    expect(await refusal(session.revert!({ turns: 1 }))).toMatchObject(
      unsupported('session.revert'),
    );
    expect(await refusal(session.history!({}))).toMatchObject(unsupported('session.history'));
    expect(
      await refusal(session.injectContext!([{ type: 'text', role: 'developer', text: 'note' }])),
    ).toMatchObject(unsupported('injectContext'));
    for (const method of ['thread/turns/list', 'thread/revert', 'thread/inject_items'])
      expect(count(h.transport, method)).toBe(0);
    await session.dispose();
  });

  it('login is refused before account/login/start', async () => {
    const h = createProviderHarness();
    const login = refusal(h.provider.login({ apiKey: 'sk-relvo-test-0000000000000000' }));
    await initialize(h);
    expect(await login).toMatchObject(unsupported('login'));
    expect(count(h.transport, 'account/login/start')).toBe(0);
  });
});

it('the doctored map lacks exactly the features named here', () => {
  const gate = new ReleaseCapabilities(OLD);
  expect(CODEX_FEATURES.filter((f) => !gate.carries(f))).toEqual(LACKING);
});
