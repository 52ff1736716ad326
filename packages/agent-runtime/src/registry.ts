import {
  canDeclareHostTools,
  captureJson,
  checkWireCompatibility,
  isProviderRejection,
  providerDescriptorSchema,
  type AgentProvider,
  type JsonObject,
  type ProviderDescriptor,
  type ProviderOptionSchemas,
} from '@relvo-labs/agent-provider';
import { providerIdSchema, type RuntimeConfig, type RuntimeProfile } from './config.js';
import { checkProfileOptions } from './config-options.js';
import { configError, providerRefusal, RuntimeError } from './errors.js';

/**
 * A provider factory registered under an id. It receives the profile's `providerOptions`
 * (JSON) and must parse them strictly: a `ProviderRejection` it throws becomes a typed config
 * error naming the profile. Declared with a `never` parameter so a factory with its own
 * options type (e.g. `createCodexProvider`) registers without a cast. A factory that carries
 * `optionSchemas` has every profile's options checked when the runtime is created.
 */
export type ProviderFactory = ((options: never) => AgentProvider) & {
  readonly optionSchemas?: ProviderOptionSchemas;
};

export interface ResolvedProvider {
  readonly profileName: string;
  readonly profile: RuntimeProfile;
  readonly provider: AgentProvider;
  /** Parsed, checked and deep-frozen at instantiation; the only descriptor ever used. */
  readonly descriptor: ProviderDescriptor;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** The first offending key path: the codex provider lists them (`issues: string[]`). */
function issuesOf(details: JsonObject | undefined): string | undefined {
  const issues = details?.issues;
  if (Array.isArray(issues)) {
    const first = issues[0];
    return typeof first === 'string' && first.length > 0 ? first : undefined;
  }
  return typeof issues === 'string' && issues.length > 0 ? issues.split(',')[0] : undefined;
}

/** Providers by id; one instance per profile, created on first use and kept. */
export class ProviderRegistry {
  private readonly factories = new Map<string, ProviderFactory>();
  private readonly instances = new Map<string, ResolvedProvider>();

  constructor(
    factories: Readonly<Record<string, ProviderFactory>>,
    private readonly config: RuntimeConfig,
  ) {
    for (const [id, factory] of Object.entries(factories)) {
      if (!providerIdSchema.safeParse(id).success || typeof factory !== 'function') {
        throw configError(
          'config_invalid',
          'a provider is registered under an invalid id or without a factory',
          {
            path: 'providers',
          },
        );
      }
      this.factories.set(id, factory);
    }
    for (const [name, profile] of Object.entries(config.profiles)) {
      const factory = this.factories.get(profile.provider);
      if (factory === undefined) {
        throw configError(
          'unknown_provider',
          `profile "${name}" names a provider that is not registered`,
          {
            profile: name,
            path: `profiles.${name}.provider`,
          },
        );
      }
      checkProfileOptions(name, profile, factory.optionSchemas);
    }
  }

  get providerIds(): readonly string[] {
    return [...this.factories.keys()];
  }

  profile(name: string): RuntimeProfile {
    if (!Object.hasOwn(this.config.profiles, name)) {
      throw configError('unknown_profile', 'no such profile in the host config', {
        path: 'profile',
      });
    }
    return this.config.profiles[name] as RuntimeProfile;
  }

  /** The provider for a profile, instantiated, described and checked on first use. */
  resolve(profileName: string): ResolvedProvider {
    const known = this.instances.get(profileName);
    if (known !== undefined) return known;
    const profile = this.profile(profileName);
    const factory = this.factories.get(profile.provider) as (options: JsonObject) => AgentProvider;
    const where = { profile: profileName, path: `profiles.${profileName}.providerOptions` };
    let provider: AgentProvider;
    try {
      provider = factory(structuredClone(profile.providerOptions));
    } catch (cause) {
      if (isProviderRejection(cause)) {
        const first = issuesOf(cause.agentError.details);
        throw providerRefusal(
          cause,
          'provider_options_refused',
          `profile "${profileName}": provider "${profile.provider}" refused its providerOptions`,
          { ...where, path: first === undefined ? where.path : `${where.path}.${first}` },
        );
      }
      throw configError(
        'provider_factory_failed',
        `profile "${profileName}": provider "${profile.provider}" could not be created`,
        where,
        cause,
      );
    }
    const descriptor = this.describe(provider, profileName, profile.provider);
    // a profile's tools its provider cannot offer: refused before any session, never dropped
    const tools = canDeclareHostTools(descriptor, profile.tools?.length ?? 0);
    if (!tools.ok) {
      throw new RuntimeError(
        'capability_unsupported',
        'host_tools_unsupported',
        `profile "${profileName}": provider "${profile.provider}" does not offer its tools`,
        { details: { profile: profileName, path: `profiles.${profileName}.tools` } },
      );
    }
    const resolved: ResolvedProvider = Object.freeze({
      profileName,
      profile,
      provider,
      descriptor,
    });
    this.instances.set(profileName, resolved);
    return resolved;
  }

  private describe(provider: AgentProvider, profileName: string, id: string): ProviderDescriptor {
    const fail = (
      reason: 'descriptor_invalid' | 'descriptor_id_mismatch' | 'wire_incompatible',
      message: string,
      details: JsonObject = {},
    ): never => {
      throw new RuntimeError('provider_contract_violation', reason, message, {
        details: { profile: profileName, providerId: id, ...details },
      });
    };
    let raw: unknown;
    try {
      raw = provider.describe();
    } catch {
      return fail('descriptor_invalid', `provider "${id}" failed to describe itself`);
    }
    const captured = captureJson(raw);
    const parsed = captured.ok ? providerDescriptorSchema.safeParse(captured.value) : undefined;
    if (parsed === undefined || !parsed.success) {
      return fail(
        'descriptor_invalid',
        `provider "${id}" returned a descriptor that does not parse`,
      );
    }
    const descriptor = deepFreeze(parsed.data);
    const wire = checkWireCompatibility(descriptor);
    if (!wire.ok) {
      return fail('wire_incompatible', `provider "${id}" speaks another wire version`, {
        providerWireVersion: descriptor.wireVersion,
      });
    }
    if (descriptor.providerId !== id) {
      return fail(
        'descriptor_id_mismatch',
        `provider registered as "${id}" describes itself under another id`,
      );
    }
    return descriptor;
  }
}
