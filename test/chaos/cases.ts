/** The chaos cases, what they need from the adapter, their settings and what a session reports. */
/** What a case needs from the adapter beyond the teardown every case relies on. */
export type Needs = 'watchdog' | 'ownedSweep';

export interface CaseKind {
  readonly name: string;
  readonly needs?: Needs;
}

export const CASE_KINDS: readonly CaseKind[] = [
  { name: 'kill9_leader_at_initialize' },
  { name: 'kill9_leader_at_thread_start' },
  { name: 'kill9_leader_at_turn_start' },
  { name: 'kill9_leader_mid_stream' },
  { name: 'kill9_leader_pending_approval' },
  { name: 'kill9_leader_during_dispose' },
  { name: 'kill9_descendant_command' },
  { name: 'sigstop_leader_interrupt_dispose', needs: 'watchdog' },
  { name: 'stdout_closed_while_alive' },
  { name: 'descendant_holds_pipe' },
  { name: 'sigterm_ignored' },
  { name: 'model_closes_mid_stream' },
  { name: 'model_stalls_mid_stream', needs: 'watchdog' },
  { name: 'model_never_answers', needs: 'watchdog' },
  { name: 'peer_acks_never_completes', needs: 'watchdog' },
  { name: 'command_setsid_daemon', needs: 'ownedSweep' },
  { name: 'busy_shell_snapshot', needs: 'ownedSweep' },
];

export interface Features {
  /** The provider accepts `stallTimeoutMs` (the stall watchdog exists). */
  readonly watchdog: boolean;
  /** The app-server's environment carries the owner marker every descendant inherits. */
  readonly ownedSweep: boolean;
}

export interface ChaosSettings {
  /** Stall timeout given to the provider when the watchdog exists. */
  readonly stallTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** How long a run may take to settle on its own before the case calls it unsettled. */
  readonly settleWindowMs: number;
}

export const DEFAULT_SETTINGS: ChaosSettings = {
  stallTimeoutMs: 2_000,
  requestTimeoutMs: 10_000,
  settleWindowMs: 12_000,
};

export interface SessionResult {
  readonly kind: string;
  /** `open:<code>`, `start:<code>`, `run:<outcome>[/<code>]` or `unsettled`. */
  readonly outcome: string;
  /** The run settled by itself within the window (or no run was ever started). */
  readonly settledInWindow: boolean;
  /** The run (if any) settled at the latest once dispose() resolved. */
  readonly settledAfterDispose: boolean;
  /** ms from the injected failure to the run's settlement (undefined: no run / not settled). */
  readonly settleMs: number | undefined;
  /** Every rejection was a ProviderRejection and every termination valid per the SPI schema. */
  readonly typed: boolean;
  /** `ok` or the dispose() rejection code. */
  readonly dispose: string;
  /** Marked processes alive right after dispose() resolved (killed afterwards by the harness). */
  readonly leaked: number;
  readonly leakedComms: readonly string[];
  readonly ms: number;
}
