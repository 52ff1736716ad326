/**
 * A command row read back from a store (ADR-0052), checked before anything trusts it: another
 * process wrote it. Damage is the typed `log_corrupt`, never a guess.
 */
import { jsonObjectSchema } from '@relvo-labs/agent-provider';
import { z } from 'zod';
import { RuntimeError } from '../errors.js';
import { COMMAND_STATES, type StoredCommand } from './commands.js';

const rowSchema = z.object({
  command_id: z.string().min(1).max(256),
  session_id: z.string().min(1).max(256),
  body: jsonObjectSchema,
  issued_by: z.string().min(1).max(256),
  issued_at: z.string().min(1).max(64),
  state: z.enum(COMMAND_STATES),
  accepted_by: z.string().min(1).max(256).nullable(),
  settlement: jsonObjectSchema.nullable(),
});
export type CommandRow = z.input<typeof rowSchema>;

/** `body` and `settlement` may arrive as JSON text (SQLite) or parsed (PostgreSQL jsonb). */
export function toCommand(raw: unknown): StoredCommand {
  const row = raw as Record<string, unknown>;
  const parsed = rowSchema.safeParse({
    ...row,
    body: typeof row['body'] === 'string' ? parseJson(row['body']) : row['body'],
    settlement:
      typeof row['settlement'] === 'string' ? parseJson(row['settlement']) : row['settlement'],
  });
  if (!parsed.success || (parsed.data.state === 'settled') !== (parsed.data.settlement !== null)) {
    throw new RuntimeError('store_unavailable', 'log_corrupt', 'a stored command is damaged');
  }
  const r = parsed.data;
  return {
    commandId: r.command_id,
    sessionId: r.session_id,
    body: r.body,
    issuedBy: r.issued_by,
    issuedAt: r.issued_at,
    state: r.state,
    ...(r.accepted_by === null ? {} : { acceptedBy: r.accepted_by }),
    ...(r.settlement === null ? {} : { settlement: r.settlement }),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function duplicateCommand(): RuntimeError {
  return new RuntimeError(
    'invalid_request',
    'command_duplicate',
    'a command with this id is already recorded',
  );
}
