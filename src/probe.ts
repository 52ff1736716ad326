/**
 * A session-less question to codex (`readAccount`, `listModels`, `readRateLimits`): a connection
 * of its own, initialize, the question, close. No thread, no turn, nothing sent to a model. A
 * failure at any step tears the connection down (or keeps it in the abandoned ledger) and is
 * classified like a failed session start.
 */
import type { CodexFeature } from './capabilities/features.js';
import { ReleaseCapabilities } from './capabilities/gate.js';
import type { CodexConnection } from './rpc/connection.js';
import type { AbandonedConnections } from './session/abandoned.js';
import { initializeConnection } from './session/handshake.js';
import type { StartupProbe } from './session/startup-failure.js';

export interface CodexProbe {
  readonly connect: () => Promise<{ connection: CodexConnection; startup: StartupProbe }>;
  readonly handshake: Parameters<typeof initializeConnection>[1];
  readonly abandoned: AbandonedConnections;
}

/**
 * initialize → `ask` → close; the connection and its process are gone when this settles. A
 * release that lacks `feature` is refused before the question (ADR-0042).
 */
export async function askCodex<T>(
  probe: CodexProbe,
  feature: CodexFeature,
  ask: (connection: CodexConnection) => Promise<T>,
): Promise<T> {
  const { connection, startup } = await probe.connect();
  let answer: T;
  try {
    await initializeConnection(
      connection,
      {
        ...probe.handshake,
        capabilityGate: (version) => new ReleaseCapabilities(version).refusal([feature]),
      },
      startup,
    );
    answer = await ask(connection);
  } catch (error) {
    throw await probe.abandoned.tearDownAfterFailedHandshake(connection, error);
  }
  await connection.close();
  return answer;
}
