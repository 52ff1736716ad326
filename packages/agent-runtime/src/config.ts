import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { hostToolsSchema, jsonObjectSchema } from '@relvo-labs/agent-provider';
import { z } from 'zod';
import { closestKey, describeIssues, summarise, type ConfigIssue } from './config-issues.js';
import { jsonSyntaxPosition } from './config-json.js';
import { configError, RuntimeError } from './errors.js';
import { profileRunSchema } from './session/turn-options.js';

/** A provider id as registered with the runtime (same grammar as a descriptor's providerId). */
export const providerIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9-]*$/);

/** Profile names are host-chosen keys such as `codex-readonly`. */
export const profileNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);

export const runtimeProfileSchema = z.strictObject({
  /** The id the provider factory is registered under (`codex`, `scripted`, …). */
  provider: providerIdSchema,
  /** Passed to the provider factory once, when the profile's provider is first instantiated. */
  providerOptions: jsonObjectSchema.default(() => ({})),
  /** `ProviderSessionInit.options` for each provider session opened on this profile. */
  sessionOptions: jsonObjectSchema.default(() => ({})),
  description: z.string().max(400).optional(),
  /**
   * What every turn on this profile asks of its run unless `submitTurn` says otherwise:
   * `model`, `effort`, `summary`, `outputSchema` (ADR-0041); each needs the provider to declare it.
   */
  run: profileRunSchema.optional(),
  /**
   * Host tools offered to this profile's sessions (`ProviderSessionInit.tools`; the provider must
   * declare `interaction.toolCall`). A call is a `tool_call` interaction, answered by the
   * runtime's function of that name (`toolFunctions`) or else by the host.
   */
  tools: hostToolsSchema.optional(),
  /** How long an approval or question may wait for a person; absent: no limit. */
  interactionExpiry: z
    .strictObject({
      afterMs: z.number().int().positive().max(2_147_483_647),
      /** `decline`: an approval is denied (a question cannot be: its run is interrupted). */
      onExpiry: z.enum(['decline', 'cancel']).default('decline'),
    })
    .optional(),
  /**
   * Provider sessions started ahead of demand (ADR-0037): `count` kept warm, each disposed after
   * `idleMs` unused. Every session on the profile must use `workspace` (borrowed), the one input
   * of a provider session that is not the profile's.
   */
  prewarm: z
    .strictObject({
      count: z.number().int().min(1).max(16),
      idleMs: z.number().int().positive().max(2_147_483_647).default(300_000),
      workspace: z.string().min(1).max(4096).refine(isAbsolute, 'must be an absolute path'),
    })
    .optional(),
});

export const runtimeConfigSchema = z
  .strictObject({
    /** Lets a JSON file point at a schema for editor support; ignored by the runtime. */
    $schema: z.string().optional(),
    defaultProfile: profileNameSchema,
    profiles: z.record(profileNameSchema, runtimeProfileSchema),
    /** Settings of the program that loads the file (its own schema); the runtime ignores them. */
    host: jsonObjectSchema.optional(),
  })
  .superRefine((config, ctx) => {
    if (!Object.hasOwn(config.profiles, config.defaultProfile)) {
      ctx.addIssue({
        code: 'custom',
        path: ['defaultProfile'],
        message: 'defaultProfile names no profile',
      });
    }
  });

export type RuntimeConfigInput = z.input<typeof runtimeConfigSchema>;
export type RuntimeConfig = z.output<typeof runtimeConfigSchema>;
export type RuntimeProfile = z.output<typeof runtimeProfileSchema>;

/**
 * Parses host config. A refusal is a `RuntimeError` (`config_invalid`) whose message lists every
 * issue (bounded) and whose details carry the key `path` of the first, the profile it is in, and
 * `issues` (each with its path; unknown keys named with the closest known key, enums with their
 * allowed values). Values are never echoed.
 */
export function parseRuntimeConfig(input: unknown): RuntimeConfig {
  const parsed = runtimeConfigSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  if (first?.code === 'custom' && first.path.join('.') === 'defaultProfile') {
    const profiles = (input as { profiles: Record<string, unknown> }).profiles;
    const named = (input as { defaultProfile: string }).defaultProfile;
    const suggestion = closestKey(named, Object.keys(profiles));
    throw configError(
      'unknown_profile',
      `host config: defaultProfile names no profile${suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`}`,
      { path: 'defaultProfile', details: suggestion === undefined ? {} : { suggestion } },
    );
  }
  const path = first?.path ?? [];
  const profile = path[0] === 'profiles' && typeof path[1] === 'string' ? path[1] : undefined;
  const issues = describeIssues(parsed.error, runtimeConfigSchema);
  throw refusal('config_invalid', 'host config', issues, profile);
}

/** A refusal listing `issues`; the first one's path (and the profile) lead the details. */
export function refusal(
  reason: 'config_invalid' | 'provider_options_refused' | 'session_options_refused',
  what: string,
  issues: readonly ConfigIssue[],
  profile: string | undefined,
): RuntimeError {
  return configError(reason, `${what}: ${summarise(issues)}`, {
    path: issues[0]?.path ?? '(root)',
    ...(profile === undefined ? {} : { profile }),
    details: { issues: issues.map((i) => ({ path: i.path, ...i.details })) },
  });
}

/** Reads and parses a JSON host config file. The file path is never copied into the error. */
export function loadRuntimeConfig(path: string): RuntimeConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    const code =
      typeof cause === 'object' &&
      cause !== null &&
      'code' in cause &&
      typeof cause.code === 'string'
        ? cause.code
        : 'unknown';
    throw new RuntimeError(
      'invalid_request',
      'config_unreadable',
      `host config file could not be read (${code.slice(0, 32)})`,
      { details: { path: '(file)', errno: code.slice(0, 32) } },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const at = jsonSyntaxPosition(text);
    const where = at === undefined ? '' : ` at line ${at.line}, column ${at.column}`;
    throw configError('config_invalid', `host config file is not valid JSON${where}`, {
      path: '(file)',
      details: at === undefined ? {} : { line: at.line, column: at.column },
    });
  }
  return parseRuntimeConfig(json);
}
