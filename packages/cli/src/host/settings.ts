/**
 * relvo-codex's own keys in a host config file: the runtime carries the `host` object and
 * ignores it; this schema is the reference for what the CLI reads there.
 */
import { z } from 'zod';
import { CliExit, EXIT } from '../exit-codes.js';

export const cliHostSettingsSchema = z.strictObject({
  /** true: keep no event log at all (as `--ephemeral`). */
  ephemeral: z.boolean().default(false),
});
export type CliHostSettings = z.output<typeof cliHostSettingsSchema>;

/** Parses the `host` object of a config file; a mistake is a usage error naming the key. */
export function parseCliHostSettings(host: unknown, source: string): CliHostSettings {
  const parsed = cliHostSettingsSchema.safeParse(host ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const keys =
    issue?.code === 'unrecognized_keys' ? issue.keys : (issue?.path ?? []).map((p) => String(p));
  const where = keys.length === 0 ? 'host' : keys.map((k) => `host.${k}`).join(', ');
  throw new CliExit(
    EXIT.usage,
    `config ${source}: ${where} is not a relvo-codex setting of the expected type (known: host.ephemeral, a boolean)`,
  );
}
