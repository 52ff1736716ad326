import type { ResolvedCodexProviderOptions } from './options.js';

export type CodexApprovalPolicy = 'untrusted' | 'on-request' | 'never';

/**
 * The thread's approval policy follows from which bridges the host enabled. `untrusted` is the
 * only policy under which codex asks for every patch (measured on 0.156.1 and 0.171.0: under
 * on-request + workspace-write it applies a patch without asking), so the file-change bridge
 * needs it (ADR-0015).
 */
export function approvalPolicyOf(options: ResolvedCodexProviderOptions): CodexApprovalPolicy {
  if (options.fileChanges === 'bridge') return 'untrusted';
  return options.approvals === 'bridge' ? 'on-request' : 'never';
}
