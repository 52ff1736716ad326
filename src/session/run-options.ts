/**
 * Per-run model, effort and summary (ADR-0041). codex keeps what one `turn/start` sets for every
 * later turn of the thread, and `null` does not undo it (both measured on 0.171.0); so a run that
 * does not set an option is sent the thread's default whenever an earlier run changed it.
 *
 * The defaults: `model` and `effort` are what `thread/start` (`thread/resume`, `thread/fork`)
 * answered. codex does not answer the summary; it is the configured `model_reasoning_summary`
 * (`config/read`, read only when a run's summary must be undone), else `auto` — what codex sent
 * the model for every slug tried when none was configured.
 */
import {
  RUN_SUMMARIES,
  type ProviderRejection,
  type RunOptions,
  type RunSummary,
} from '@relvo-labs/agent-provider';
import { codexRejection } from '../shared/codex-error.js';

export type RunOptionKey = keyof RunOptions;
const KEYS: readonly RunOptionKey[] = ['model', 'effort', 'summary'];

/** What the thread's start answered. `effort` is undefined when codex sends the model none. */
export interface ThreadDefaults {
  readonly model?: string | undefined;
  readonly effort?: string | undefined;
}

/** The `turn/start` members of one run. */
export type TurnSettingsParams = { -readonly [K in RunOptionKey]?: string };

/** What a recovery record keeps, so that a resumed thread still gets its defaults back. */
export interface SettingsSnapshot {
  readonly defaults: ThreadDefaults;
  /** What codex holds for the thread that differs from its defaults. */
  readonly changed: TurnSettingsParams;
}

/** The measured fallback when no `model_reasoning_summary` is configured. */
export const UNCONFIGURED_SUMMARY: RunSummary = 'auto';

export function summaryOf(configured: unknown): RunSummary {
  return (RUN_SUMMARIES as readonly unknown[]).includes(configured)
    ? (configured as RunSummary)
    : UNCONFIGURED_SUMMARY;
}

export class TurnSettings {
  readonly #defaults: ThreadDefaults;
  readonly #readSummary: () => Promise<RunSummary>;
  #summaryDefault: RunSummary | undefined;
  /** Options codex holds for the thread that differ from its defaults (or may). */
  readonly #changed = new Map<RunOptionKey, string>();

  /** `changed`: what a resumed thread still holds from a run of the exporting session. */
  constructor(
    defaults: ThreadDefaults,
    readSummary: () => Promise<RunSummary>,
    changed: { readonly [K in RunOptionKey]?: string | undefined } = {},
  ) {
    this.#defaults = defaults;
    this.#readSummary = readSummary;
    for (const key of KEYS) {
      const value = changed[key];
      if (value !== undefined) this.#changed.set(key, value);
    }
  }

  /** The defaults and what differs from them now (for a recovery record). */
  snapshot(): SettingsSnapshot {
    return { defaults: this.#defaults, changed: Object.fromEntries(this.#changed) };
  }

  /** A run may set an option only when its default can be sent back afterwards. */
  refusal(options: RunOptions): ProviderRejection | undefined {
    for (const key of ['model', 'effort'] as const) {
      if (options[key] !== undefined && this.#defaults[key] === undefined) {
        return codexRejection(
          'invalid_request',
          `the thread's default ${key} is not known, so a per-run ${key} could not be undone`,
          { providerCode: 'run_option_not_restorable', details: { option: key } },
        );
      }
    }
    return undefined;
  }

  /** What `turn/start` carries for a run with `options`: its own, else the defaults to restore. */
  async paramsFor(options: RunOptions): Promise<TurnSettingsParams> {
    const params: TurnSettingsParams = {};
    for (const key of KEYS) {
      const own = options[key];
      if (own !== undefined) {
        params[key] = own;
        continue;
      }
      const fallback = this.#changed.has(key) ? await this.#default(key) : undefined;
      if (fallback !== undefined) params[key] = fallback;
    }
    return params;
  }

  /** codex answered the `turn/start` that carried `params`: it holds them now. */
  accepted(params: TurnSettingsParams): void {
    for (const key of KEYS) {
      const value = params[key];
      if (value === undefined) continue;
      const fallback = key === 'summary' ? this.#summaryDefault : this.#defaults[key];
      if (value === fallback) this.#changed.delete(key);
      else this.#changed.set(key, value);
    }
  }

  async #default(key: RunOptionKey): Promise<string | undefined> {
    if (key !== 'summary') return this.#defaults[key];
    this.#summaryDefault ??= await this.#readSummary();
    return this.#summaryDefault;
  }
}
