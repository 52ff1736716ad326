/**
 * The recovery record of a persisted codex thread (`persistence: 'thread'`, ADR-0016). The
 * `opaque` part is versioned and only this provider reads it. It never holds a path: the codex
 * home and the workspace root are kept as digests, enough to refuse a record that belongs to
 * another home or workspace, and nothing a durable event store should not keep.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { posix } from 'node:path';
import {
  providerRecoveryRecordSchema,
  WIRE_VERSION,
  type JsonObject,
  type ProviderRecoveryRecord,
} from '@relvo-labs/agent-provider';
import { z } from 'zod';
import { CODEX_ADAPTER_VERSION, CODEX_PROVIDER_ID } from '../constants.js';
import type { UsageTotals } from '../protocol/inbound.js';
import type { ProviderCode } from '../protocol/provider-codes.js';
import type { SettingsSnapshot } from './run-options.js';
import { codexRejection } from '../shared/codex-error.js';

export const RECOVERY_FORMAT = 'codex-thread';
export const RECOVERY_FORMAT_VERSION = 1;

const digestSchema = z.string().regex(/^[0-9a-f]{64}$/);
const token = z.string().min(1).max(200);

export const codexRecoveryOpaqueSchema = z.strictObject({
  format: z.literal(RECOVERY_FORMAT),
  version: z.literal(RECOVERY_FORMAT_VERSION),
  threadId: z.string().min(1).max(200),
  codexHome: digestSchema,
  workspace: digestSchema,
  /** The last turn this thread ran under the exporting session; replays of it are not a run's. */
  lastTurnId: z.string().min(1).max(200).optional(),
  /**
   * The thread's token total at export: a fork's thread starts from it (codex counts the forked
   * history into the new thread's total and, unlike a resume, replays none of it).
   */
  total: z
    .strictObject({
      inputTokens: z.number().int().nonnegative(),
      outputTokens: z.number().int().nonnegative(),
      totalTokens: z.number().int().nonnegative(),
    })
    .optional(),
  /**
   * Per-run options the thread still holds (ADR-0041): codex keeps them and a resume answers
   * them as the thread's own, so the record keeps the defaults they are to be undone to.
   */
  settings: z
    .strictObject({
      defaults: z.strictObject({ model: token.optional(), effort: token.optional() }),
      changed: z.strictObject({
        model: token.optional(),
        effort: token.optional(),
        summary: token.optional(),
      }),
    })
    .optional(),
});
export type CodexRecoveryOpaque = z.infer<typeof codexRecoveryOpaqueSchema>;

/** Domain-separated so a digest of one kind can never match another. */
export function placeDigest(kind: 'codex-home' | 'workspace', path: string): string {
  return createHash('sha256').update(`relvo-codex:${kind}:${path}`).digest('hex');
}

/**
 * One workspace however it is spelled (a trailing slash, `/.`, a symlink to it): its real path,
 * or — when it cannot be resolved, as with an injected transport — its normalised spelling.
 */
export function canonicalWorkspace(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return posix.normalize(root).replace(/(.)\/+$/, '$1');
  }
}

/** The digest a record keeps for a workspace root. */
export function workspaceDigest(root: string): string {
  return placeDigest('workspace', canonicalWorkspace(root));
}

export interface RecoveryFacts {
  readonly threadId: string;
  readonly codexHomeDigest: string;
  readonly workspaceDigest: string;
  readonly lastTurnId: string | undefined;
  readonly total?: UsageTotals | undefined;
  readonly settings?: SettingsSnapshot | undefined;
}

export function buildRecoveryRecord(facts: RecoveryFacts): ProviderRecoveryRecord {
  const opaque: JsonObject = {
    format: RECOVERY_FORMAT,
    version: RECOVERY_FORMAT_VERSION,
    threadId: facts.threadId,
    codexHome: facts.codexHomeDigest,
    workspace: facts.workspaceDigest,
    ...(facts.lastTurnId !== undefined ? { lastTurnId: facts.lastTurnId } : {}),
    ...(facts.total !== undefined && facts.total.totalTokens > 0
      ? {
          total: {
            inputTokens: facts.total.inputTokens,
            outputTokens: facts.total.outputTokens,
            totalTokens: facts.total.totalTokens,
          },
        }
      : {}),
    ...(facts.settings !== undefined && Object.keys(facts.settings.changed).length > 0
      ? { settings: settingsJson(facts.settings) }
      : {}),
  };
  return {
    providerId: CODEX_PROVIDER_ID,
    providerVersion: CODEX_ADAPTER_VERSION,
    wireVersion: WIRE_VERSION,
    opaque,
  };
}

function settingsJson(settings: SettingsSnapshot): JsonObject {
  const set = (o: object): JsonObject =>
    Object.fromEntries(
      Object.entries(o).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  return { defaults: set(settings.defaults), changed: set(settings.changed) };
}

function refused(providerCode: ProviderCode, message: string): never {
  throw codexRejection('invalid_request', message, { providerCode });
}

/**
 * Reads a record handed to `resumeSession`: another provider's record, another wire version or
 * an opaque part this provider did not write is refused, as is one for another workspace.
 * Checked before anything is spawned.
 */
export function readRecoveryRecord(record: unknown, workspaceRoot: string): CodexRecoveryOpaque {
  const parsed = providerRecoveryRecordSchema.safeParse(record);
  if (!parsed.success) refused('recovery_record_malformed', 'the recovery record is malformed');
  if (parsed.data.providerId !== CODEX_PROVIDER_ID)
    refused('recovery_record_foreign', 'the recovery record belongs to another provider');
  if (parsed.data.wireVersion !== WIRE_VERSION)
    refused('recovery_record_malformed', 'the recovery record has another wire version');
  const opaque = codexRecoveryOpaqueSchema.safeParse(parsed.data.opaque);
  if (!opaque.success)
    refused('recovery_record_malformed', 'the recovery record was not written by this provider');
  if (opaque.data.workspace !== workspaceDigest(workspaceRoot))
    refused('recovery_workspace_mismatch', 'the recovery record belongs to another workspace');
  return opaque.data;
}
