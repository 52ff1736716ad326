/**
 * `item/permissions/requestApproval` → one neutral approval (ADR-0040). The model asks for more
 * sandbox access (paths to read or write, the network) for the turn or the session. The subject
 * shows each path relative to the workspace, an outside one marked (as patches are, ADR-0015);
 * the native paths stay private in the plan and are granted back exactly as asked. codex has no
 * decline field: an empty grant declines, and it is also what releases a retired request.
 */
import { z } from 'zod';
import {
  approvalRequestSchema,
  type ApprovalResponse,
  type JsonObject,
} from '@relvo-labs/agent-provider';
import { redactAddressesIn } from '../shared/url-redaction.js';
import { changeTarget } from './file-change-target.js';
import {
  LOCAL_ENVIRONMENT_ID,
  MAX_APPROVAL_SUMMARY_CHARS,
  refuseApproval,
  type ApprovalTranslation,
} from './native-approval.js';

const nonEmpty = z.string().min(1);
const pathList = z.array(z.string()).nullish();

const entrySchema = z.strictObject({
  // only plain paths can be shown; a glob or a special path (root, tmpdir…) is refused below
  path: z.looseObject({ type: z.string() }),
  access: z.enum(['read', 'write', 'deny']),
});

const profileSchema = z.strictObject({
  network: z.strictObject({ enabled: z.boolean().nullish() }).nullish(),
  fileSystem: z
    .strictObject({
      read: pathList,
      write: pathList,
      entries: z.array(entrySchema).nullish(),
      globScanMaxDepth: z.int().nullish(),
    })
    .nullish(),
});
export type NativePermissionProfile = z.infer<typeof profileSchema>;

export const nativePermissionsParamsSchema = z.strictObject({
  threadId: nonEmpty,
  turnId: nonEmpty,
  itemId: nonEmpty,
  environmentId: z.string().nullish(),
  startedAtMs: z.int(),
  cwd: z.string(),
  reason: z.string().nullish(),
  permissions: profileSchema,
});

export const MAX_LISTED_PERMISSION_PATHS = 64;
const MAX_PERMISSION_PATH_CHARS = 1024;
const MAX_REASON_CHARS = 2000;

/** The native reply: the grant (the request's own profile, or nothing) and its scope. */
export interface NativePermissionsReply {
  readonly permissions: NativePermissionProfile | Record<string, never>;
  readonly scope: 'turn' | 'session';
}

/** The reply that declines: codex reads an empty grant as "nothing granted". */
export const EMPTY_PERMISSION_GRANT: NativePermissionsReply = { permissions: {}, scope: 'turn' };

interface ListedPath {
  readonly path: string;
  readonly access: 'read' | 'write';
  readonly outsideWorkspace?: true;
}

function listPaths(profile: NativePermissionProfile, root: string): ListedPath[] | 'unsupported' {
  const fs = profile.fileSystem;
  const raw: { path: string; access: 'read' | 'write' }[] = [];
  for (const path of fs?.read ?? []) raw.push({ path, access: 'read' });
  for (const path of fs?.write ?? []) raw.push({ path, access: 'write' });
  for (const entry of fs?.entries ?? []) {
    const path = entry.path['path'];
    if (entry.path.type !== 'path' || typeof path !== 'string' || entry.access === 'deny')
      return 'unsupported';
    raw.push({ path, access: entry.access });
  }
  // the legacy lists and `entries` name the same paths: list each (path, access) once
  const seen = new Set<string>();
  const listed: ListedPath[] = [];
  for (const { path, access } of raw) {
    const key = `${access}\u0000${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const target = changeTarget(path, root, MAX_PERMISSION_PATH_CHARS);
    listed.push({
      path: target.path,
      access,
      ...(target.outside ? { outsideWorkspace: true } : {}),
    });
  }
  return listed;
}

/** Network first and by name, so no cut or fallback can hide it; then the paths. */
function summaryFor(paths: readonly ListedPath[], network: boolean): string {
  const parts = paths.map(
    (p) => `${p.access} ${p.path}${p.outsideWorkspace === true ? ' (OUTSIDE the workspace)' : ''}`,
  );
  if (network) parts.unshift('NETWORK access');
  const outside = paths.some((p) => p.outsideWorkspace === true);
  const warning = outside ? 'WARNING: reaches OUTSIDE the workspace. ' : '';
  const inline = `${warning}Codex requests more sandbox permissions: ${parts.join(', ')}`;
  if (inline.length <= MAX_APPROVAL_SUMMARY_CHARS) return inline;
  const count = `${paths.length} path${paths.length === 1 ? '' : 's'}`;
  const what = network ? `NETWORK access and ${count}` : count;
  return `${warning}Codex requests more sandbox permissions: ${what} (each is in the detail)`;
}

export interface PermissionsTranslation {
  readonly translation: ApprovalTranslation;
  /** The grant an approval sends back: the request's own profile, copied. */
  readonly grant?: NativePermissionProfile;
}

export function translatePermissionsRequest(
  params: unknown,
  workspaceRoot: string,
): PermissionsTranslation {
  const parsed = nativePermissionsParamsSchema.safeParse(params);
  if (!parsed.success) return { translation: refuseApproval('malformed') };
  const p = parsed.data;
  if (
    p.environmentId !== null &&
    p.environmentId !== undefined &&
    p.environmentId !== LOCAL_ENVIRONMENT_ID
  ) {
    return { translation: refuseApproval('environment_unsupported') };
  }
  const paths = listPaths(p.permissions, workspaceRoot);
  if (paths === 'unsupported') return { translation: refuseApproval('permission_unsupported') };
  const network = p.permissions.network?.enabled === true;
  if (paths.length === 0 && !network)
    return { translation: refuseApproval('no_requested_permission') };
  if (paths.length > MAX_LISTED_PERMISSION_PATHS)
    return { translation: refuseApproval('detail_too_large') };

  const outside = paths.some((path) => path.outsideWorkspace === true);
  // what each answer grants for how long: `once` is codex's `turn` scope
  const detail: JsonObject = {
    paths: paths.map((path) => ({ ...path })),
    network,
    scopes: { once: 'turn', session: 'session' },
  };
  if (outside) detail['outsideWorkspace'] = true;
  if (typeof p.reason === 'string' && p.reason.length > 0)
    detail['reason'] = redactAddressesIn(p.reason).slice(0, MAX_REASON_CHARS);
  const writes = paths.some((path) => path.access === 'write');
  const request = approvalRequestSchema.safeParse({
    kind: 'approval',
    subject: {
      category: writes ? 'file_write' : network ? 'network' : 'other',
      summary: summaryFor(paths, network),
      detail,
    },
    // codex's scopes: `turn` (the narrowest it has) and `session`
    allowedModes: ['once', 'session'],
    riskHint: outside || network ? 'high' : 'medium',
  });
  if (!request.success) return { translation: refuseApproval('malformed') };
  return {
    translation: {
      ok: true,
      request: request.data,
      correlation: { threadId: p.threadId, turnId: p.turnId },
    },
    grant: structuredClone(p.permissions),
  };
}

/** approved once → the grant for the turn, session → for the session, denied → nothing. */
export function nativePermissionsReply(
  grant: NativePermissionProfile,
  response: ApprovalResponse,
): NativePermissionsReply {
  if (response.decision === 'denied') return EMPTY_PERMISSION_GRANT;
  return { permissions: grant, scope: response.mode === 'session' ? 'session' : 'turn' };
}
