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
  // under `never` codex sends no permission request and no MCP tool-call approval (ADR-0040)
  const asks =
    options.approvals === 'bridge' ||
    options.permissions === 'bridge' ||
    options.mcpElicitations === 'bridge';
  return asks ? 'on-request' : 'never';
}

/** The `request_permissions` tool is a codex feature under development, off unless asked for. */
export function permissionsToolArgs(options: ResolvedCodexProviderOptions): readonly string[] {
  return options.permissions === 'bridge' ? ['-c', 'features.request_permissions_tool=true'] : [];
}
