import type {
  InteractionRequest,
  InteractionResponse,
  InteractionSettlement,
  ProviderDescriptor,
  ProviderSession,
} from '@relvo-labs/agent-provider';
import type { RuntimeClock } from '../clock.js';
import type { IdFactory } from '../ids.js';
import type { ArmedExpiry, ExpiryPolicy } from './expiry.js';
import type { SessionLog } from './log.js';
import type { RunDriver } from './run.js';

/** One interaction of a run, from its request to its settlement (indexed by the session too). */
export interface InteractionRecord {
  readonly interactionId: string;
  readonly turnId: string;
  readonly runId: string;
  readonly providerRef: string;
  readonly request: InteractionRequest;
  readonly requestedAt: string;
  readonly run: RunDriver;
  status: 'pending' | 'delivering' | 'settled';
  /** The answer being delivered to the provider (status `delivering`). */
  inFlight?: InteractionResponse;
  delivery?: Promise<void>;
  settlement?: InteractionSettlement;
  /** Set when the profile lets requests expire. */
  expiry?: ArmedExpiry;
}

export interface RunContext {
  readonly log: SessionLog;
  readonly clock: RuntimeClock;
  readonly ids: IdFactory;
  readonly descriptor: ProviderDescriptor;
  readonly providerSession: ProviderSession;
  readonly profile: string;
  /** Session-wide interaction index (by interactionId). */
  readonly interactions: Map<string, InteractionRecord>;
  /** The profile's `interactionExpiry`; absent: requests wait for a person without limit. */
  readonly expiry?: ExpiryPolicy;
  /** Called once, after `run.finished` and `turn.settled` are appended. */
  onFinished(run: RunDriver, uncertainStart: boolean): void;
}
