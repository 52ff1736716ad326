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
import { threadSettingsOf } from './thread-settings.js';
import type { Output } from '../ui/output.js';

export interface RunPolicy {
  /** undefined: codex's own default (its config.toml, else its catalog's), named once it reports it. */
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

/** The codex line: the model (named, else the one codex reported), effort, sandbox, approvals. */
export function codexLine(out: Output, policy: RunPolicy, reported?: string): string {
  const model =
    policy.model !== undefined
      ? neutraliseLine(policy.model)
      : `${reported === undefined ? 'unknown' : neutraliseLine(reported)} (codex’s default)`;
  const effort = policy.effort === undefined ? '' : ` · effort ${neutraliseLine(policy.effort)}`;
  return `${out.c.bold('codex')}    model ${model}${effort} · sandbox ${policy.sandbox} · approvals ${policy.approvals}`;
}

/** Prints the codex line once a payload reports the thread's model; true when it did. */
export type PendingCodexLine = (payload: unknown, beforePrint: () => void) => boolean;

/**
 * The profile line, the codex line and the warnings. When nothing names the model, the codex
 * line waits for the model codex reports for the thread: what prints it then is returned.
 */
export function printRunHeader(
  out: Output,
  profile: { readonly name: string; readonly source: string; readonly value: RuntimeProfile },
  workspace: string,
): PendingCodexLine | undefined {
  const policy = policyOf(profile.value);
  out.note(
    `${out.c.bold('profile')}  ${neutraliseLine(profile.name)} (${neutraliseLine(profile.source)}) · workspace ${neutraliseLine(workspace)}`,
  );
  if (policy === undefined) return undefined;
  if (policy.model !== undefined) out.note(codexLine(out, policy));
  for (const w of policyWarnings(policy)) out.warn(`⚠ ${w}`);
  if (policy.model !== undefined) return undefined;
  let printed = false;
  return (payload, beforePrint) => {
    const reported = printed ? undefined : threadSettingsOf(payload);
    if (reported === undefined) return false;
    printed = true;
    beforePrint();
    out.note(codexLine(out, policy, reported.model));
    return true;
  };
}
