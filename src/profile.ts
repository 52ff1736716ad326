/**
 * `codexProfile`: a runtime profile whose `providerOptions` are typed as the adapter's own options,
 * so a host needs no `as unknown as JsonObject`. The adapter does not depend on the runtime; the
 * result is shaped to be assignable to its profile type (checked by test/provider/profile.test-d.ts).
 */
import { captureJson, type JsonObject } from '@relvo-labs/agent-provider';
import {
  codexProviderOptionsSchema,
  codexSessionOptionsSchema,
  type CodexProviderOptions,
  type CodexSessionOptions,
} from './options.js';
import { codexRejection } from './shared/codex-error.js';
import { parseOptions } from './shared/parse-options.js';

/** The provider options a config file can hold: everything but the two function-valued keys. */
export type CodexProfileProviderOptions = Omit<CodexProviderOptions, 'transport' | 'onRateLimits'>;

export interface CodexProfileInit {
  readonly providerOptions?: CodexProfileProviderOptions;
  readonly sessionOptions?: CodexSessionOptions;
  readonly description?: string;
}

export interface CodexProfile {
  readonly provider: 'codex';
  readonly providerOptions: JsonObject;
  readonly sessionOptions: JsonObject;
  readonly description?: string;
}

function jsonOptions(value: unknown, path: string): JsonObject {
  const captured = captureJson(value);
  if (captured.ok && typeof captured.value === 'object' && captured.value !== null) {
    if (!Array.isArray(captured.value)) return captured.value;
  }
  // The capture reason is a fixed token that names no part of the input.
  throw codexRejection('invalid_request', 'codex profile options are not JSON', {
    providerCode: 'invalid_options',
    details: { issues: [path] },
  });
}

/**
 * Checks the options against the adapter's schemas (unknown keys and bad values are refused with
 * their paths) and that they survive JSON, then returns them as given: defaults stay the factory's.
 * Throws a `ProviderRejection` (`invalid_request` / `invalid_options`).
 */
export function codexProfile(init: CodexProfileInit = {}): CodexProfile {
  const providerOptions = jsonOptions(init.providerOptions ?? {}, 'providerOptions');
  const sessionOptions = jsonOptions(init.sessionOptions ?? {}, 'sessionOptions');
  const provider = parseOptions(
    codexProviderOptionsSchema,
    providerOptions,
    'invalid codex provider options',
  );
  if (!provider.ok) throw provider.rejection;
  const session = parseOptions(
    codexSessionOptionsSchema,
    sessionOptions,
    'invalid codex session options',
  );
  if (!session.ok) throw session.rejection;
  return {
    provider: 'codex',
    providerOptions,
    sessionOptions,
    ...(init.description === undefined ? {} : { description: init.description }),
  };
}
