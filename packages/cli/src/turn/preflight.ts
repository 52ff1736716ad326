/**
 * What `run` asks codex before a turn that would otherwise fail late: whether it is logged in
 * (a turn would only retry for minutes), and whether the model offers the `--effort` asked for
 * (codex's own catalog, `model/list`; the model is the one named, else the one codex answers for
 * a thread of this profile). Each asks a codex of its own, bounded; only a clear answer stops
 * the run: a codex that cannot be asked fails the turn with its own reason.
 */
import type { CodexModel, CodexProvider } from '@relvo-labs/agent-provider-codex';
import type { ProviderEventInput } from '@relvo-labs/agent-provider';
import { CliExit, EXIT } from '../exit-codes.js';
import { checkLogin, loginHint, NOT_LOGGED_IN } from '../codex/login.js';
import type { LocatedCodex } from '../codex/locate.js';
import type { ChosenConfig } from '../host/config.js';
import { codexFactory } from '../host/runtime.js';
import { policyOf } from './header.js';
import { threadSettingsOf } from './thread-settings.js';

/** How long each of these questions may wait for codex to answer. */
const PREFLIGHT_TIMEOUT_MS = 15_000;

/** The chosen codex profile's own provider (its CODEX_HOME, config and arguments), bounded. */
function profileProvider(chosen: ChosenConfig, codex: LocatedCodex): CodexProvider | undefined {
  const profile = chosen.config.profiles[chosen.profile];
  if (profile?.provider !== 'codex') return undefined;
  try {
    return codexFactory(codex)({
      ...profile.providerOptions,
      // a thread asked only for its model leaves nothing behind in CODEX_HOME
      persistence: 'ephemeral',
      requestTimeoutMs: PREFLIGHT_TIMEOUT_MS,
    });
  } catch {
    return undefined; // refused options: the runtime says which, at the turn
  }
}

export async function requireLogin(
  chosen: ChosenConfig,
  codex: LocatedCodex,
  workspace: string,
): Promise<void> {
  const provider = profileProvider(chosen, codex);
  if (provider === undefined) return;
  const check = await checkLogin(provider, workspace);
  if (check.checked && !check.loggedIn) {
    throw new CliExit(EXIT.failed, `${NOT_LOGGED_IN}: ${loginHint(codex.path)}`);
  }
}

/** The model codex answers for a thread of this profile: a thread started and closed at once. */
async function threadModel(
  provider: CodexProvider,
  workspace: string,
): Promise<string | undefined> {
  let model: string | undefined;
  const sink = {
    emit: (event: ProviderEventInput) => {
      model ??= threadSettingsOf(event.payload)?.model;
    },
  };
  const session = await provider.createSession({
    options: {},
    workspace: { root: workspace, ownership: 'borrowed' },
    sink,
  });
  await session.dispose();
  return model;
}

/** The one-line refusal of a level the model does not offer. */
export function effortRefusal(model: CodexModel, effort: string): string | undefined {
  if (model.efforts.includes(effort)) return undefined;
  return (
    `--effort ${effort}: model ${model.id} offers ${model.efforts.join(', ')}; ` +
    `pick one of those, or leave --effort out for its default (${model.defaultEffort})`
  );
}

/**
 * Refuses (exit 2) an effort the model does not offer. A model outside codex's catalog (another
 * model provider's) cannot be checked here: its turn goes ahead and the model provider decides.
 */
export async function checkEffort(
  chosen: ChosenConfig,
  codex: LocatedCodex,
  workspace: string,
): Promise<void> {
  const profile = chosen.config.profiles[chosen.profile];
  const policy = profile === undefined ? undefined : policyOf(profile);
  const effort = policy?.effort;
  const provider = profileProvider(chosen, codex);
  if (effort === undefined || provider === undefined) return;
  let found: CodexModel | undefined;
  try {
    const [list, model] = await Promise.all([
      provider.listModels({ cwd: workspace, includeHidden: true }),
      policy?.model ?? threadModel(provider, workspace),
    ]);
    found = list.models.find((m) => m.id === model || m.model === model);
  } catch {
    return; // codex could not be asked: the turn itself says why
  }
  const refusal = found === undefined ? undefined : effortRefusal(found, effort);
  if (refusal !== undefined) throw new CliExit(EXIT.usage, refusal);
}
