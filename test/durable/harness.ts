/**
 * Hosts in separate processes on one PostgreSQL database, each a runtime driving the real codex
 * binary (persistence 'thread') against one scripted model. A host is killed with SIGKILL
 * mid-turn; a standby host, its runtime already running, calls `resumeSession` until the dead
 * host's lease has lapsed, then settles what it left open and resumes the codex thread.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  createIsolatedCodexHome,
  requireCodexBinary,
  ScriptedModelServer,
  type IsolatedCodexHome,
} from '../../src/testing/index.js';
import { pgQuery } from '../../packages/agent-runtime/test/pg-cluster.js';
import { usePgCluster } from '../../packages/agent-runtime/test/pg-suite.js';
import { RuntimeChild } from '../../packages/agent-runtime/test/runtime-child.js';
import { onCleanup } from '../../packages/agent-runtime/test/support.js';
import { processesWithEnv } from '../support/proc-scan.js';
import { testEnv } from '../support/processes.js';

const CHILD = fileURLToPath(new URL('./fixtures/codex-runtime-child.ts', import.meta.url));
const MARK_VAR = 'RELVO_DURABLE_HOST_MARK';
/**
 * Short enough that a takeover is quick, long enough that a busy machine renews in time: an owner
 * whose event loop stalls longer than this loses its session to the next runtime that starts.
 */
export const LEASE_MS = 2_500;

export type PgServer = ReturnType<typeof usePgCluster>;

export interface Fleet {
  readonly server: ScriptedModelServer;
  readonly iso: IsolatedCodexHome;
  readonly schema: string;
  readonly url: string;
  /** A host process; its codex children carry its mark. */
  host(spec: HostSpec): Host;
  /** Every stored envelope's sequence and type, in order. */
  stored(sessionId: string): Promise<[number, string][]>;
  /** Processes of these hosts (codex included) alive now, as `<pid> <comm>`. */
  alive(of: readonly Host[]): string[];
  /** Processes of these hosts (codex included) alive after a bounded grace (then killed). */
  survivors(of: readonly Host[]): Promise<string[]>;
}

export interface HostSpec {
  readonly mode: 'turn' | 'follow';
  readonly sessionId?: string;
  readonly prompt?: string;
  readonly waitGo?: boolean;
  readonly finish?: boolean;
  readonly answer?: boolean;
  readonly slowSettle?: boolean;
  readonly retryRefused?: boolean;
}

export class Host extends RuntimeChild {
  constructor(
    args: string[],
    env: NodeJS.ProcessEnv,
    readonly mark: string,
  ) {
    super(CHILD, args, env);
  }

  /** The run this host submitted. */
  async runId(): Promise<string> {
    return (await this.line((l) => l.startsWith('RUN '), 'the run')).slice(4);
  }

  /** A follower's start took nothing over (a lapse under a live owner would show here). */
  async startedClean(): Promise<boolean> {
    return (await this.line((l) => l.startsWith('STARTED '), 'the follower start')) === 'STARTED |';
  }

  /** Until this host's subscription saw an event of `type` in its own run. */
  async saw(type: string, label: string): Promise<void> {
    const runId = await this.runId();
    await this.line((l) => l.startsWith('EVENT ') && l.endsWith(` ${type} ${runId}`), label);
  }
}

export async function startFleet(pg: PgServer, schema: string): Promise<Fleet> {
  const binary = requireCodexBinary({ kind: 'native' });
  const iso = createIsolatedCodexHome('relvo-durable-');
  const server = await ScriptedModelServer.start();
  const url = pg.cluster().connectionString;
  onCleanup(async () => {
    await server.close();
    iso.dispose();
  });
  const marked = (of: readonly Host[]): string[] =>
    of.flatMap((h) => processesWithEnv(`${MARK_VAR}=${h.mark}`).map((p) => `${p.pid} ${p.comm}`));
  return {
    server,
    iso,
    schema,
    url,
    host(spec) {
      const mark = randomUUID();
      const full = {
        ...spec,
        url,
        schema,
        leaseMs: LEASE_MS,
        baseUrl: server.baseUrl,
        executable: binary.path,
        workspace: iso.workspace,
      };
      return new Host([JSON.stringify(full)], iso.env(testEnv({ [MARK_VAR]: mark })), mark);
    },
    async stored(sessionId) {
      const rows = await pgQuery<{ sequence: number; type: string }>(
        url,
        `SELECT sequence::float8 AS sequence, type FROM ${schema}.events WHERE session_id = $1
         ORDER BY sequence`,
        [sessionId],
      );
      return rows.map((r) => [r.sequence, r.type]);
    },
    alive: marked,
    async survivors(of) {
      for (const deadline = Date.now() + 5_000; marked(of).length > 0 && Date.now() < deadline;)
        await new Promise((r) => setTimeout(r, 50));
      const alive = marked(of);
      for (const p of alive) {
        try {
          process.kill(Number(p.split(' ')[0]), 'SIGKILL');
        } catch {
          // gone
        }
      }
      return alive;
    },
  };
}

/**
 * SIGKILL to `owner` while `standby`, a running runtime, waits; at once it is told to go and
 * calls `resumeSession` until the lease has lapsed. Resolves with the time (ms) from the kill
 * until the standby has the codex thread open again.
 */
export async function killAndTakeOver(
  owner: Host,
  standby: Host,
  sessionId: string,
): Promise<number> {
  await standby.line((l) => l === 'READY', 'the standby runtime');
  const killedAt = Date.now();
  owner.signal('SIGKILL');
  standby.send('GO');
  await standby.line((l) => l.startsWith(`RESUMED ${sessionId} `), 'the takeover', LEASE_MS * 10);
  return Date.now() - killedAt;
}

/** The follower's `SEQ` lines as [sequence, type]. */
export function followed(follower: Host): [number, string][] {
  return follower.lines
    .filter((l) => l.startsWith('SEQ '))
    .map((l): [number, string] => {
      const [, seq, type] = l.split(' ');
      return [Number(seq), type ?? ''];
    });
}
