import { providerDescriptorSchema } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import {
  CODEX_APP_SERVER_VERSION,
  CODEX_SUPPORTED_APP_SERVER_VERSIONS,
  createCodexProvider,
  type CodexProviderOptions,
} from '../../src/index.js';
import { CODEX_FEATURES } from '../../src/capabilities/features.js';
import { CODEX_RELEASE_CAPABILITIES } from '../../src/capabilities/releases.js';
import { createProviderHarness } from '../support/provider-harness.js';
import { open, openedHarness } from '../support/provider-frames.js';

const APPROVAL_ON = { supported: true, modes: ['once', 'session'], blocking: true };
const APPROVAL_OFF = { supported: false, modes: [], blocking: true };
const QUESTION_ON = {
  supported: true,
  choices: true,
  multiSelect: false,
  batch: true,
  maxQuestions: null,
  freeText: true,
  sensitive: true,
};
const QUESTION_OFF = {
  supported: false,
  choices: false,
  multiSelect: false,
  batch: false,
  maxQuestions: null,
  freeText: false,
  sensitive: false,
};

function expected(approvals: boolean, questions: boolean, sandbox: string) {
  return {
    providerId: 'codex',
    providerVersion: '0.1.0',
    wireVersion: '0.7',
    run: {
      interrupt: { mode: 'cooperative', deliversPartialOutput: true, sessionRemainsUsable: true },
      streaming: { messageDeltas: true, toolActivity: false, incrementalUsage: true },
      maxConcurrentRunsPerSession: 1,
      steer: true,
      structuredOutput: true,
      options: { model: true, effort: true, summary: true },
    },
    interaction: {
      approval: approvals ? APPROVAL_ON : APPROVAL_OFF,
      question: questions ? QUESTION_ON : QUESTION_OFF,
      settlementTimeoutMs: null,
    },
    workspace: { requires: 'directory', acceptsOwnership: ['borrowed', 'managed'], writes: true },
    recovery: {
      exportsRecoveryRecord: false,
      resumesFromRecoveryRecord: false,
      forksFromRecoveryRecord: false,
    },
    // thread/revert needs a persisted thread
    session: { revert: false, history: false },
    extensions: {
      appServerVersion: CODEX_APP_SERVER_VERSION,
      supportedAppServerVersions: [...CODEX_SUPPORTED_APP_SERVER_VERSIONS],
      releaseCapabilities: {
        features: [...CODEX_FEATURES],
        releases: Object.fromEntries(
          CODEX_SUPPORTED_APP_SERVER_VERSIONS.map((v) => [v, [...CODEX_RELEASE_CAPABILITIES[v]]]),
        ),
      },
      protocolSurface: 'stable',
      transport: 'stdio-jsonl',
      textGranularity: 'delta',
      supportedInputParts: ['text'],
      declaredSandboxMode: sandbox,
      declaredApprovalPolicy: approvals ? 'on-request' : 'never',
      toolActivity: 'none',
      runExtensions: { namespace: 'codex', plan: false, diff: 'none', reasoningSummary: false },
      persistence: 'ephemeral',
      mcpServers: [],
      bridgedServerRequests: [
        ...(approvals ? ['item/commandExecution/requestApproval'] : []),
        ...(questions ? ['item/tool/requestUserInput'] : []),
      ],
      approvalDenialReasonDelivered: false,
      isolatesConfiguredTooling: false,
      accountStatusProbe: true,
      modelListProbe: true,
      rateLimitsProbe: true,
      rateLimitUpdates: false,
    },
  };
}

describe('descriptor contents (docs/behaviour.md §8)', () => {
  const combos: [boolean, boolean, CodexProviderOptions['sandboxMode']][] = [
    [false, false, undefined],
    [true, false, 'workspace-write'],
    [false, true, 'danger-full-access'],
    [true, true, 'read-only'],
  ];
  for (const [approvals, questions, sandboxMode] of combos) {
    it(`approvals ${approvals ? 'bridge' : 'none'}, questions ${questions ? 'bridge' : 'none'}, sandbox ${sandboxMode ?? 'default'}`, () => {
      const provider = createCodexProvider({
        approvals: approvals ? 'bridge' : 'none',
        questions: questions ? 'bridge' : 'none',
        ...(sandboxMode !== undefined ? { sandboxMode } : {}),
        transport: () => {
          throw new Error('not used');
        },
      });
      const descriptor = provider.describe();
      expect(providerDescriptorSchema.parse(descriptor)).toEqual(descriptor);
      const { displayName, ...rest } = descriptor;
      expect(typeof displayName).toBe('string');
      expect(displayName.length).toBeGreaterThanOrEqual(1);
      expect(displayName.length).toBeLessThanOrEqual(128);
      expect(rest).toEqual(expected(approvals, questions, sandboxMode ?? 'read-only'));
    });
  }

  it('a session sandbox override does not change the provider-level declaration', async () => {
    const h = createProviderHarness();
    const session = await open(h, { sandboxMode: 'danger-full-access' });
    expect(h.provider.describe().extensions['declaredSandboxMode']).toBe('read-only');
    await session.dispose();
  });

  it('no recovery: the session has no exportRecoveryRecord and the provider no resumeSession', async () => {
    const { h, session } = await openedHarness();
    expect('exportRecoveryRecord' in session).toBe(false);
    expect('resumeSession' in h.provider).toBe(false);
    await session.dispose();
  });

  it('persistence thread declares revert and history; ephemeral neither', () => {
    expect(createCodexProvider({ persistence: 'thread' }).describe().session).toEqual({
      revert: true,
      history: true,
    });
    expect(createCodexProvider().describe().session).toEqual({ revert: false, history: false });
  });

  it('unknown provider options are refused at construction', () => {
    expect(() => createCodexProvider({ shell: true } as never)).toThrow();
  });

  it('onRateLimits is declared as rateLimitUpdates; a callback that is no function is refused', () => {
    const transport = () => {
      throw new Error('not used');
    };
    const provider = createCodexProvider({ transport, onRateLimits: () => undefined });
    expect(provider.describe().extensions['rateLimitUpdates']).toBe(true);
    expect(() => createCodexProvider({ transport, onRateLimits: 'log' } as never)).toThrow(
      expect.objectContaining({
        agentError: expect.objectContaining({ details: { issues: ['onRateLimits'] } }),
      }),
    );
  });
});

describe('descriptor: run extensions', () => {
  it('declares each events opt-in under namespace codex', () => {
    const d = createCodexProvider({ events: { plan: true, diff: 'summary' } }).describe();
    expect(d.extensions['runExtensions']).toEqual({
      namespace: 'codex',
      plan: true,
      diff: 'summary',
      reasoningSummary: false,
    });
  });
});
