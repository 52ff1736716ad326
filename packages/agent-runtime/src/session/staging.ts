import { SPI_LIMITS, type ProviderEventPayload } from '@relvo-labs/agent-provider';
import type { EventPayload } from '../envelope.js';

/** Emissions kept while a run is starting, drained after it becomes active (docs/spi.md §10.3). */
export const STAGED_EMISSIONS_LIMIT = SPI_LIMITS.preBindingEmissions;

/** What a run's sink receives before `startRun` resolved: the first emissions, bounded. */
export class StagedEmissions {
  #staged: ProviderEventPayload[] = [];
  #dropped = 0;

  push(payload: ProviderEventPayload): void {
    if (this.#staged.length < STAGED_EMISSIONS_LIMIT) this.#staged.push(payload);
    else this.#dropped += 1;
  }

  /** Hands back what was kept, and the overflow diagnostic when some were dropped. */
  drain(): { readonly payloads: ProviderEventPayload[]; readonly overflow?: EventPayload } {
    const payloads = this.#staged;
    const dropped = this.#dropped;
    this.clear();
    if (dropped === 0) return { payloads };
    return {
      payloads,
      overflow: {
        type: 'diagnostic',
        level: 'warning',
        message: 'emissions beyond the staging limit were dropped before the run became active',
        detail: { code: 'staging_overflow', rejected: dropped, limit: STAGED_EMISSIONS_LIMIT },
      },
    };
  }

  clear(): void {
    this.#staged = [];
    this.#dropped = 0;
  }
}
