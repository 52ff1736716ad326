import { defineProviderDescriptor, type ProviderDescriptor } from '@relvo-labs/agent-provider';
import {
  CODEX_ADAPTER_VERSION,
  CODEX_APP_SERVER_VERSION,
  CODEX_PROVIDER_ID,
  CODEX_SUPPORTED_APP_SERVER_VERSIONS,
} from './constants.js';
import { approvalPolicyOf } from './approval-policy.js';
import { CODEX_FEATURES } from './capabilities/features.js';
import { CODEX_RELEASE_CAPABILITIES } from './capabilities/releases.js';
import {
  CODEX_BRIDGED_APPROVAL,
  CODEX_BRIDGED_ELICITATION,
  CODEX_BRIDGED_FILE_CHANGE,
  CODEX_BRIDGED_PERMISSIONS,
  CODEX_BRIDGED_QUESTION,
} from './protocol/wire-names.js';
import { CODEX_EXTENSION_NAMESPACE } from './events/schemas.js';
import type { ResolvedCodexProviderOptions } from './options.js';

/** The descriptor is computed once per provider from host configuration. */
export function buildCodexDescriptor(options: ResolvedCodexProviderOptions): ProviderDescriptor {
  const approvals = options.approvals === 'bridge';
  const questions = options.questions === 'bridge';
  const bridged: string[] = [];
  if (approvals) bridged.push(CODEX_BRIDGED_APPROVAL);
  if (questions) bridged.push(CODEX_BRIDGED_QUESTION);
  const fileChanges = options.fileChanges === 'bridge';
  if (fileChanges) bridged.push(CODEX_BRIDGED_FILE_CHANGE);
  const permissions = options.permissions === 'bridge';
  if (permissions) bridged.push(CODEX_BRIDGED_PERMISSIONS);
  const elicitations = options.mcpElicitations === 'bridge';
  if (elicitations) bridged.push(CODEX_BRIDGED_ELICITATION);
  // permission grants and MCP tool approvals have codex's session scope, as commands do
  const sessionScoped = approvals || permissions || elicitations;
  const toolActivity = options.toolActivity === 'redacted';
  return defineProviderDescriptor({
    providerId: CODEX_PROVIDER_ID,
    providerVersion: CODEX_ADAPTER_VERSION,
    displayName: 'OpenAI Codex (app-server, stdio)',
    run: {
      interrupt: { mode: 'cooperative', deliversPartialOutput: true, sessionRemainsUsable: true },
      streaming: { messageDeltas: true, toolActivity, incrementalUsage: true },
      maxConcurrentRunsPerSession: 1,
      // turn/steer: stable in every reviewed release (ADR-0041); the descriptor is per provider, so
      // a release lacking it is refused at steer, and outputSchema at startRun (ADR-0042)
      steer: true,
      // turn/start outputSchema, validated by the adapter (ADR-0041)
      structuredOutput: true,
      // turn/start model, effort, summary; the thread's defaults are sent back after (ADR-0041)
      options: { model: true, effort: true, summary: true },
      // thread/inject_items, stable in every reviewed release (ADR-0064)
      injectContext: true,
    },
    interaction: {
      // patches are offered `once` only (ADR-0015); commands `once` and `session`
      approval: sessionScoped
        ? { supported: true, modes: ['once', 'session'], blocking: true }
        : fileChanges
          ? { supported: true, modes: ['once'], blocking: true }
          : { supported: false, modes: [], blocking: true },
      question:
        questions || elicitations
          ? {
              supported: true,
              choices: true,
              // an MCP form's enum array is a multi-select (ADR-0040)
              multiSelect: elicitations,
              batch: true,
              maxQuestions: null,
              freeText: true,
              sensitive: questions,
            }
          : {},
      // thread/start.dynamicTools is experimental: host tools need the host's opt-in (ADR-0064)
      toolCall: { supported: options.experimentalApi },
      settlementTimeoutMs: null,
    },
    // writes stays true under every sandbox mode: configured MCP servers, hooks, plugins and
    // skills are not constrained by Codex's own policy.
    workspace: { requires: 'directory', acceptsOwnership: ['borrowed', 'managed'], writes: true },
    recovery:
      options.persistence === 'thread'
        ? {
            exportsRecoveryRecord: true,
            resumesFromRecoveryRecord: true,
            // thread/fork of the record's thread (ADR-0041)
            forksFromRecoveryRecord: true,
          }
        : {},
    // thread/revert and thread/turns/list work on persisted threads only (measured on 0.171.0)
    session: {
      revert: options.persistence === 'thread',
      history: options.persistence === 'thread',
    },
    extensions: {
      appServerVersion: CODEX_APP_SERVER_VERSION,
      supportedAppServerVersions: [...CODEX_SUPPORTED_APP_SERVER_VERSIONS],
      // which reviewed release carries which optional feature; a session or run asking for one
      // its release lacks is refused capability_unsupported (ADR-0042)
      releaseCapabilities: {
        features: [...CODEX_FEATURES],
        releases: Object.fromEntries(
          Object.entries(CODEX_RELEASE_CAPABILITIES).map(([v, carried]) => [v, [...carried]]),
        ),
      },
      protocolSurface: options.experimentalApi ? 'experimental' : 'stable',
      experimentalApi: options.experimentalApi,
      transport: 'stdio-jsonl',
      textGranularity: 'delta',
      supportedInputParts: options.fileReferences === 'resolve' ? ['text', 'file_ref'] : ['text'],
      declaredSandboxMode: options.sandboxMode,
      declaredApprovalPolicy: approvalPolicyOf(options),
      toolActivity: options.toolActivity,
      // run.extension kinds published under namespace `codex` (ADR-0039, docs/behaviour.md)
      runExtensions: {
        namespace: CODEX_EXTENSION_NAMESPACE,
        plan: options.events.plan,
        diff: options.events.diff,
        reasoningSummary: options.events.reasoningSummary,
      },
      persistence: options.persistence,
      // the names only: a server's command, URL and env stay out of the descriptor
      mcpServers: (options.mcpServers ?? []).map((s) => s.name),
      bridgedServerRequests: bridged,
      // a patch leaving the workspace is refused unless the host asked to see it (ADR-0015)
      ...(fileChanges ? { outsideWorkspaceChanges: options.outsideWorkspaceChanges } : {}),
      // a URL elicitation's address is withheld unless the host asked to show it (ADR-0040)
      ...(elicitations ? { elicitationUrls: options.elicitationUrls } : {}),
      approvalDenialReasonDelivered: false,
      isolatesConfiguredTooling: false,
      // `provider.readAccount()`: codex's own login state, before any session (src/account.ts)
      accountStatusProbe: true,
      // `provider.listModels()` and `provider.readRateLimits()`, session-less likewise (src/models.ts,
      // src/rate-limits.ts); whether the host hears live limits (`onRateLimits`)
      modelListProbe: true,
      rateLimitsProbe: true,
      rateLimitUpdates: options.onRateLimits !== undefined,
    },
  });
}
