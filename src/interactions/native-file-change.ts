/**
 * `item/fileChange/requestApproval` → one neutral approval (ADR-0015). The request names only
 * an `itemId`; the file list comes from the `fileChange` item codex announced just before it on
 * the same turn. Without that item there is nothing a person could review, so the request is
 * refused (`no_reviewable_subject`). The subject lists workspace-relative paths and the kind of
 * each change — never the diff, never an absolute path outside the workspace.
 */
import { z } from 'zod';
import { approvalRequestSchema, type JsonObject } from '@relvo-labs/agent-provider';
import type { CodexFileChangeItem } from '../protocol/items.js';
import { OUTSIDE_WORKSPACE, workspacePath } from '../shared/workspace-redaction.js';
import {
  MAX_APPROVAL_SUMMARY_CHARS,
  refuseApproval,
  type ApprovalTranslation,
} from './native-approval.js';

const nonEmpty = z.string().min(1);

export const nativeFileChangeApprovalParamsSchema = z.strictObject({
  threadId: nonEmpty,
  turnId: nonEmpty,
  itemId: nonEmpty,
  startedAtMs: z.int(),
  reason: z.string().nullish(),
  grantRoot: z.string().nullish(),
});

/** Finds the fileChange item announced on `turnId` under `itemId`. */
export type FileChangeLookup = (turnId: string, itemId: string) => CodexFileChangeItem | undefined;

export const MAX_LISTED_CHANGES = 64;
export const MAX_CHANGE_PATH_CHARS = 1024;
const KINDS = ['add', 'delete', 'update'] as const;

interface ListedChange {
  readonly path: string;
  readonly kind: string;
  readonly movedTo?: string;
}

function summaryFor(changes: readonly ListedChange[], total: number): string {
  const listed = changes.map(
    (c) => `${c.kind} ${c.path}${c.movedTo === undefined ? '' : ` → ${c.movedTo}`}`,
  );
  const inline = `Codex requests approval to change ${total} file${total === 1 ? '' : 's'}: ${listed.join(', ')}`;
  if (inline.length <= MAX_APPROVAL_SUMMARY_CHARS && changes.length === total) return inline;
  return `Codex requests approval to change ${total} files (see the list)`;
}

export function translateFileChangeApproval(
  params: unknown,
  lookup: FileChangeLookup,
  workspaceRoot: string,
): ApprovalTranslation {
  const parsed = nativeFileChangeApprovalParamsSchema.safeParse(params);
  if (!parsed.success) return refuseApproval('malformed');
  const p = parsed.data;
  // a grant of write access for the rest of the session is not an approve/deny of this patch
  if (typeof p.grantRoot === 'string') return refuseApproval('grant_root_requested');
  const item = lookup(p.turnId, p.itemId);
  if (item === undefined || item.changes.length === 0)
    return refuseApproval('no_reviewable_subject');

  const changes: ListedChange[] = item.changes.slice(0, MAX_LISTED_CHANGES).map((change) => {
    const kind = (KINDS as readonly string[]).includes(change.kind.type)
      ? change.kind.type
      : 'unknown';
    const path = workspacePath(change.path, workspaceRoot, MAX_CHANGE_PATH_CHARS);
    const move = change.kind.move_path;
    return typeof move === 'string'
      ? { path, kind, movedTo: workspacePath(move, workspaceRoot, MAX_CHANGE_PATH_CHARS) }
      : { path, kind };
  });
  if (changes.some((c) => c.kind === 'unknown')) return refuseApproval('no_reviewable_subject');
  const outside = changes.some(
    (c) => c.path === OUTSIDE_WORKSPACE || c.movedTo === OUTSIDE_WORKSPACE,
  );
  const detail: JsonObject = {
    changes: changes.map((c) => ({ ...c })),
    changeCount: item.changes.length,
  };
  if (outside) detail['outsideWorkspace'] = true;
  const request = approvalRequestSchema.safeParse({
    kind: 'approval',
    subject: {
      category: changes.every((c) => c.kind === 'delete') ? 'file_delete' : 'file_write',
      summary: summaryFor(changes, item.changes.length),
      detail,
    },
    // acceptForSession for patches was not measured to be honoured: offer `once` only
    allowedModes: ['once'],
    riskHint: outside ? 'high' : 'medium',
  });
  if (!request.success) return refuseApproval('malformed');
  return {
    ok: true,
    request: request.data,
    correlation: { threadId: p.threadId, turnId: p.turnId },
  };
}
