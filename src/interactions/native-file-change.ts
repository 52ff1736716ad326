/**
 * `item/fileChange/requestApproval` → one neutral approval (ADR-0015). The request names only
 * an `itemId`; the file list comes from the `fileChange` item codex announced just before it on
 * the same turn. Without that item there is nothing a person could review, so the request is
 * refused (`no_reviewable_subject`). The subject lists workspace-relative paths and the kind of
 * each change — never the diff, never an absolute path. A change that leaves the workspace is
 * shown where it goes (`../outside/f.txt`) and marked; unless the host asked to see such
 * changes it is refused (`outside_workspace_change`) and so never applied on a default answer.
 */
import { z } from 'zod';
import { approvalRequestSchema, type JsonObject } from '@relvo-labs/agent-provider';
import type { CodexFileChangeItem } from '../protocol/items.js';
import { changeTarget } from './file-change-target.js';
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

/** What to do with a patch that writes outside the workspace. */
export const OUTSIDE_WORKSPACE_CHANGE_MODES = ['decline', 'ask'] as const;
export type OutsideWorkspaceChangeMode = (typeof OUTSIDE_WORKSPACE_CHANGE_MODES)[number];

/** What the file-change bridge needs: announced patches, the root, the outside-change mode. */
export interface FileChangeBridgeOptions {
  readonly lookup: FileChangeLookup;
  readonly workspaceRoot: string;
  readonly outsideChanges: OutsideWorkspaceChangeMode;
}

interface ListedChange {
  readonly path: string;
  readonly kind: string;
  readonly movedTo?: string;
  readonly outsideWorkspace?: true;
}

function summaryFor(changes: readonly ListedChange[], total: number): string {
  const listed = changes.map(
    (c) =>
      `${c.kind} ${c.path}${c.movedTo === undefined ? '' : ` → ${c.movedTo}`}` +
      (c.outsideWorkspace === true ? ' (OUTSIDE the workspace)' : ''),
  );
  const outside = changes.some((c) => c.outsideWorkspace === true);
  const head = `Codex requests approval to change ${total} file${total === 1 ? '' : 's'}`;
  // the warning comes first so that no cut of the summary can drop it
  const warning = outside ? 'WARNING: writes OUTSIDE the workspace. ' : '';
  const inline = `${warning}${head}: ${listed.join(', ')}`;
  if (inline.length <= MAX_APPROVAL_SUMMARY_CHARS && changes.length === total) return inline;
  return `${warning}${head} (each listed one is in the detail)`;
}

function listChange(change: CodexFileChangeItem['changes'][number], root: string): ListedChange {
  const kind = (KINDS as readonly string[]).includes(change.kind.type)
    ? change.kind.type
    : 'unknown';
  const target = changeTarget(change.path, root, MAX_CHANGE_PATH_CHARS);
  const move = change.kind.move_path;
  const moved =
    typeof move === 'string' ? changeTarget(move, root, MAX_CHANGE_PATH_CHARS) : undefined;
  return {
    path: target.path,
    kind,
    ...(moved === undefined ? {} : { movedTo: moved.path }),
    ...(target.outside || moved?.outside === true ? { outsideWorkspace: true as const } : {}),
  };
}

export function translateFileChangeApproval(
  params: unknown,
  lookup: FileChangeLookup,
  workspaceRoot: string,
  outsideChanges: OutsideWorkspaceChangeMode = 'decline',
): ApprovalTranslation {
  const parsed = nativeFileChangeApprovalParamsSchema.safeParse(params);
  if (!parsed.success) return refuseApproval('malformed');
  const p = parsed.data;
  // a grant of write access for the rest of the session is not an approve/deny of this patch
  if (typeof p.grantRoot === 'string') return refuseApproval('grant_root_requested');
  const item = lookup(p.turnId, p.itemId);
  if (item === undefined || item.changes.length === 0)
    return refuseApproval('no_reviewable_subject');

  // every change is checked for leaving the workspace, listed or not
  const all = item.changes.map((change) => listChange(change, workspaceRoot));
  if (all.some((c) => c.kind === 'unknown')) return refuseApproval('no_reviewable_subject');
  const outside = all.some((c) => c.outsideWorkspace === true);
  if (outside && outsideChanges === 'decline') return refuseApproval('outside_workspace_change');
  // a list cut to its bound keeps the outside targets first, so the cut never hides one
  const changes = (
    all.length <= MAX_LISTED_CHANGES
      ? all
      : [
          ...all.filter((c) => c.outsideWorkspace === true),
          ...all.filter((c) => c.outsideWorkspace !== true),
        ]
  ).slice(0, MAX_LISTED_CHANGES);
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
