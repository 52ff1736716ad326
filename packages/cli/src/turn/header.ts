/**
 * What `run` tells a person before codex starts: the profile, the model, the sandbox and the
 * approval policy it runs with — and a warning when codex may act without asking or outside a
 * sandbox.
 */
import {
  codexProviderOptionsSchema,
  codexSessionOptionsSchema,
} from '@relvo-labs/agent-provider-codex';
import type { RuntimeProfile } from '@relvo-labs/agent-runtime';
import { neutraliseLine } from '../ui/neutralise.js';
import type { Output } from '../ui/output.js';

export interface RunPolicy {
  /** undefined: codex's own default (its config.toml). */
  readonly model: string | undefined;
  /** The profile's `run.effort`; undefined: the model's own. */
  readonly effort?: string | undefined;
  readonly sandbox: string;
  readonly approvals: string;
}

/** The policy a codex profile resolves to; undefined for another provider or refused options. */
export function policyOf(profile: RuntimeProfile): RunPolicy | undefined {
  if (profile.provider !== 'codex') return undefined;
  const provider = codexProviderOptionsSchema.safeParse(profile.providerOptions);
  const session = codexSessionOptionsSchema.safeParse(profile.sessionOptions);
  if (!provider.success || !session.success) return undefined;
  return {
    // the turn's own model (the profile's `run.model`) wins over the session's
    model: profile.run?.model ?? session.data.model ?? provider.data.model,
    effort: profile.run?.effort,
    sandbox: session.data.sandboxMode ?? provider.data.sandboxMode,
    approvals: provider.data.approvals,
  };
}

export function policyWarnings(policy: RunPolicy): string[] {
  const warnings: string[] = [];
  if (policy.sandbox === 'danger-full-access') {
    warnings.push(
      'sandbox danger-full-access: commands codex runs can read and change anything your user can',
    );
  }
  if (policy.approvals === 'none') {
    warnings.push(
      'approvals none: codex never asks you; what its sandbox allows runs without your say',
    );
  }
  return warnings;
}

export function printRunHeader(
  out: Output,
  profile: { readonly name: string; readonly source: string; readonly value: RuntimeProfile },
  workspace: string,
): void {
  const policy = policyOf(profile.value);
  out.note(
    `${out.c.bold('profile')}  ${neutraliseLine(profile.name)} (${neutraliseLine(profile.source)}) · workspace ${neutraliseLine(workspace)}`,
  );
  if (policy === undefined) return;
  out.note(
    `${out.c.bold('codex')}    model ${policy.model === undefined ? 'default (your codex config)' : neutraliseLine(policy.model)}${policy.effort === undefined ? '' : ` · effort ${neutraliseLine(policy.effort)}`} · sandbox ${policy.sandbox} · approvals ${policy.approvals}`,
  );
  for (const w of policyWarnings(policy)) out.warn(`⚠ ${w}`);
}
