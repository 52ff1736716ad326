/**
 * Host input parsed defensively: a hostile proxy or a throwing getter becomes a refusal that
 * names no host text (only the offending key paths), never a raw throw.
 */
import type { ProviderRejection } from '@relvo-labs/agent-provider';
import type { z } from 'zod';
import { codexRejection } from './codex-error.js';
import { issuePaths } from './issue-paths.js';

function invalidOptions(message: string, issues: readonly string[]): ProviderRejection {
  return codexRejection('invalid_request', message, {
    providerCode: 'invalid_options',
    details: { issues: [...issues] },
  });
}

export function parseOptions<T>(
  schema: z.ZodType<T>,
  input: unknown,
  message: string,
): { ok: true; data: T } | { ok: false; rejection: ProviderRejection } {
  try {
    const parsed = schema.safeParse(input);
    if (parsed.success) return { ok: true, data: parsed.data };
    return { ok: false, rejection: invalidOptions(message, issuePaths(parsed.error, 'options')) };
  } catch {
    return { ok: false, rejection: invalidOptions(message, ['options']) };
  }
}
