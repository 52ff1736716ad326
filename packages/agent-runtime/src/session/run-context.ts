import type { ProviderDescriptor, ProviderSession } from '@relvo-labs/agent-provider';
import type { RuntimeClock } from '../clock.js';
import type { ExpiryPolicy } from './expiry.js';
import type { InteractionLifecycle } from './interactions.js';
import type { SessionLog } from './log.js';
import type { RunDriver } from './run.js';

export interface RunContext {
  readonly log: SessionLog;
  readonly clock: RuntimeClock;
  readonly descriptor: ProviderDescriptor;
  readonly providerSession: ProviderSession;
  readonly profile: string;
  /** The session's one owner of interaction records. */
  readonly interactions: InteractionLifecycle;
  /** The profile's `interactionExpiry`; absent: requests wait for a person without limit. */
  readonly expiry?: ExpiryPolicy;
  /** Called once, after `run.finished` and `turn.settled` are appended. */
  onFinished(run: RunDriver, uncertainStart: boolean): void;
}
