import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { workspaceOwnershipSchema, type WorkspaceOwnership } from '@relvo-labs/agent-provider';
import { RuntimeError } from './errors.js';

/** A session's workspace as the host named it: realpath-resolved, an existing directory. */
export type WorkspaceInput =
  string | { readonly root: string; readonly ownership?: WorkspaceOwnership };

export function resolveWorkspace(input: WorkspaceInput): {
  root: string;
  ownership: WorkspaceOwnership;
} {
  const root = typeof input === 'string' ? input : input.root;
  const ownership = workspaceOwnershipSchema.safeParse(
    typeof input === 'string' ? 'borrowed' : (input.ownership ?? 'borrowed'),
  );
  if (!ownership.success) {
    // refused here, not stored: session.opened would not parse on read
    throw new RuntimeError(
      'invalid_request',
      'workspace_invalid',
      `the workspace ownership must be one of ${workspaceOwnershipSchema.options.join(', ')}`,
      { details: { path: 'workspace.ownership', allowed: [...workspaceOwnershipSchema.options] } },
    );
  }
  try {
    if (!isAbsolute(root)) throw new Error('relative');
    const real = realpathSync(root);
    if (!statSync(real).isDirectory()) throw new Error('not a directory');
    return { root: real, ownership: ownership.data };
  } catch {
    throw new RuntimeError(
      'workspace_unavailable',
      'workspace_invalid',
      'the workspace must be an existing absolute directory',
    );
  }
}
