import { readFileSync } from 'node:fs';
import { jsonObjectSchema } from '@relvo-labs/agent-provider';
import { z } from 'zod';
import { configError, RuntimeError } from './errors.js';

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
  /** How long an approval or question may wait for a person; absent: no limit. */
  interactionExpiry: z
    .strictObject({
      afterMs: z.number().int().positive().max(2_147_483_647),
      /** `decline`: an approval is denied (a question cannot be: its run is interrupted). */
      onExpiry: z.enum(['decline', 'cancel']).default('decline'),
    })
    .optional(),
});

export const runtimeConfigSchema = z
  .strictObject({
    /** Lets a JSON file point at a schema for editor support; ignored by the runtime. */
    $schema: z.string().optional(),
    defaultProfile: profileNameSchema,
    profiles: z.record(profileNameSchema, runtimeProfileSchema),
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

function issuePath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(root)' : path.map((p) => String(p)).join('.');
}

/**
 * Parses host config. A refusal is a `RuntimeError` (`config_invalid`) whose details carry
 * the key path of the first issue and, when the path is inside a profile, the profile name.
 * Values are never echoed.
 */
export function parseRuntimeConfig(input: unknown): RuntimeConfig {
  const parsed = runtimeConfigSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue === undefined ? [] : issue.path;
  const profile = path[0] === 'profiles' && typeof path[1] === 'string' ? path[1] : undefined;
  const where = issuePath(path);
  const unknownProfileRef = where === 'defaultProfile' && issue?.code === 'custom';
  return failConfig(
    unknownProfileRef ? 'unknown_profile' : 'config_invalid',
    unknownProfileRef
      ? 'host config: defaultProfile names no profile'
      : `host config: invalid value at ${where}`,
    profile === undefined ? { path: where } : { profile, path: where },
  );
}

function failConfig(
  reason: 'config_invalid' | 'unknown_profile',
  message: string,
  where: { profile?: string; path: string },
): never {
  throw configError(reason, message, where);
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
    throw configError('config_invalid', 'host config file is not valid JSON', { path: '(file)' });
  }
  return parseRuntimeConfig(json);
}
