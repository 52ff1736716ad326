/**
 * A profile's provider and session options, checked against the provider's own schemas
 * (`ProviderOptionSchemas`) when the runtime is created, so a typo is refused then, by key.
 */
import type { ProviderOptionSchemas } from '@relvo-labs/agent-provider';
import type { z } from 'zod';
import { refusal, type RuntimeProfile } from './config.js';
import { describeIssues } from './config-issues.js';

function check(
  schema: z.ZodType | undefined,
  value: unknown,
  prefix: string,
  reason: 'provider_options_refused' | 'session_options_refused',
  what: string,
  profile: string,
): void {
  if (schema === undefined) return;
  let parsed: ReturnType<z.ZodType['safeParse']>;
  try {
    parsed = schema.safeParse(value);
  } catch {
    // a schema that throws is the provider's fault; its factory decides at first use
    return;
  }
  if (!parsed.success)
    throw refusal(reason, what, describeIssues(parsed.error, schema, prefix), profile);
}

const CHECKED = [
  ['providerOptions', 'provider_options_refused'],
  ['sessionOptions', 'session_options_refused'],
] as const;

export function checkProfileOptions(
  name: string,
  profile: RuntimeProfile,
  schemas: ProviderOptionSchemas | undefined,
): void {
  for (const [key, reason] of CHECKED) {
    const where = `profiles.${name}.${key}`;
    check(schemas?.[key], profile[key], where, reason, `profile "${name}": ${key} refused`, name);
  }
}
