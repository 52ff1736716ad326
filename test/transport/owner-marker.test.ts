import { describe, expect, it } from 'vitest';
import {
  MarkedProcesses,
  OWNER_ENV_VAR,
  withOwnerMarker,
} from '../../src/transport/owner-marker.js';
import { OwnedGroup } from '../../src/transport/process-group.js';
import { createLinuxProcProbe, environHolds } from '../../src/transport/proc-probe.js';
import { teardown, type TeardownDeps } from '../../src/transport/teardown.js';
import { CodexTransportError } from '../../src/transport/types.js';
import { ScriptedWorld, scriptedLeader, virtualClock } from '../support/scripted-probe.js';

const LEADER = 100;
const OWNER = 'owner-1';
const MARK = [`${OWNER_ENV_VAR}=${OWNER}`];
const OTHER = [`${OWNER_ENV_VAR}=owner-2`];
const SELF = 5;

function setup(build: (w: ScriptedWorld) => void) {
  const world = new ScriptedWorld();
  world.add(LEADER, { pgid: LEADER, starttime: 1000, env: MARK });
  build(world);
  const marked = new MarkedProcesses(world, OWNER, SELF);
  const deps: TeardownDeps = {
    probe: world,
    group: new OwnedGroup(world, LEADER),
    marked,
    useProcessGroup: true,
    closeGraceMs: 2000,
    killGraceMs: 2000,
    clock: virtualClock(),
  };
  return { world, marked, deps };
}

async function failure(p: Promise<void>): Promise<CodexTransportError> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof CodexTransportError)) throw new Error('expected a CodexTransportError');
  return err;
}

describe('environHolds', () => {
  const block = (...entries: string[]) => Buffer.from(entries.map((e) => `${e}\0`).join(''));
  it('matches a whole entry only, first, middle or unterminated last', () => {
    expect(environHolds(block('A=1', 'RELVO_CODEX_OWNER=x'), 'RELVO_CODEX_OWNER=x')).toBe(true);
    expect(environHolds(block('RELVO_CODEX_OWNER=x', 'B=2'), 'RELVO_CODEX_OWNER=x')).toBe(true);
    expect(environHolds(Buffer.from('A=1\0RELVO_CODEX_OWNER=x'), 'RELVO_CODEX_OWNER=x')).toBe(true);
    // a longer value, a prefixed name, or the text inside another value are not the marker
    expect(environHolds(block('RELVO_CODEX_OWNER=xy'), 'RELVO_CODEX_OWNER=x')).toBe(false);
    expect(environHolds(block('XRELVO_CODEX_OWNER=x'), 'RELVO_CODEX_OWNER=x')).toBe(false);
    expect(environHolds(block('A=RELVO_CODEX_OWNER=x'), 'RELVO_CODEX_OWNER=x')).toBe(false);
    expect(environHolds(Buffer.alloc(0), 'RELVO_CODEX_OWNER=x')).toBe(false);
  });

  it('the Linux probe reads a real environment and reports kernel threads as unmarked', () => {
    const probe = createLinuxProcProbe();
    const entry = `PATH=${process.env.PATH ?? ''}`;
    expect(probe.markerOf(process.pid, entry)).toBe('marked');
    expect(probe.markerOf(process.pid, `${OWNER_ENV_VAR}=nobody-has-this`)).toBe('unmarked');
    expect(probe.markerOf(2 ** 22 + 7, entry)).toBe('gone');
  });
});

describe('withOwnerMarker', () => {
  it('adds the marker, overrides an inherited one and drops undefined values', () => {
    const env = withOwnerMarker({ A: '1', B: undefined, [OWNER_ENV_VAR]: 'outer' }, 'inner');
    expect(env).toEqual({ A: '1', [OWNER_ENV_VAR]: 'inner' });
  });
});

describe('MarkedProcesses', () => {
  it('adopts by marker in any group or session, and children of owned processes whatever their environment', () => {
    const { marked } = setup((w) => {
      w.add(201, { pgid: 201, starttime: 1100, ppid: 1, env: MARK }); // setsid daemon
      w.add(202, { pgid: 202, starttime: 1200, ppid: 201, env: [] }); // scrubbed (env -i)
      w.add(203, { pgid: 202, starttime: 1300, ppid: 202, hidesEnviron: true }); // non-dumpable
      w.add(300, { pgid: 300, starttime: 900, ppid: 1, env: OTHER }); // another transport's
      w.add(301, { pgid: 301, starttime: 950, ppid: 1, hidesEnviron: true }); // a stranger
      w.add(SELF, { pgid: SELF, starttime: 10, env: MARK }); // the host itself: never
    });
    const scan = marked.scan();
    expect([...marked.members.keys()].sort()).toEqual([LEADER, 201, 202, 203]);
    expect(scan.unreadable).toBe(1);
    expect(scan.complete).toBe(true);
  });

  it('a child older than its recorded parent is not adopted (the PID was recycled)', () => {
    const { marked } = setup((w) => {
      w.add(201, { pgid: 201, starttime: 1100, ppid: 1, env: MARK });
      w.add(202, { pgid: 202, starttime: 1050, ppid: 201, env: [] });
    });
    marked.scan();
    expect(marked.members.has(202)).toBe(false);
  });

  it('re-reads identity before every signal: a recycled PID is dropped unsignalled', () => {
    const { world, marked } = setup((w) => {
      w.add(201, { pgid: 201, starttime: 1100, env: MARK });
    });
    marked.scan();
    world.procs.get(201)!.starttime = 5000; // died; PID reused by a stranger
    expect(marked.signalMember(201, 'SIGTERM')).toBe('dropped');
    expect(world.signalled(201)).toEqual([]);
  });

  it('an unreadable listing is doubt, cleared by the next readable scan', () => {
    const { world, marked } = setup(() => undefined);
    world.listingUnreadable = true;
    expect(marked.scan().complete).toBe(false);
    expect(marked.doubt).toBe('marker_listing_unreadable');
    world.listingUnreadable = false;
    marked.scan();
    expect(marked.doubt).toBeUndefined();
  });
});

describe('teardown sweeps every marked process', () => {
  it('after a clean leader exit: a setsid daemon and an orphaned command get SIGTERM', async () => {
    const { world, deps } = setup((w) => {
      w.add(201, { pgid: 201, starttime: 1100, env: MARK });
      w.add(202, { pgid: 202, starttime: 1200, env: MARK });
      w.add(300, { pgid: 300, starttime: 1300, env: OTHER });
    });
    await teardown(scriptedLeader(world, LEADER), deps);
    // each died of SIGTERM, so the follow-up SIGCONT found it gone and was not sent
    expect(world.signalled(201)).toEqual(['SIGTERM']);
    expect(world.signalled(202)).toEqual(['SIGTERM']);
    expect(world.signalled(300)).toEqual([]);
    expect(world.procs.get(300)!.alive).toBe(true);
  });

  it('a stopped process acts on SIGTERM once continued; one ignoring SIGTERM gets SIGKILL', async () => {
    const { world, deps } = setup((w) => {
      w.add(201, { pgid: 201, starttime: 1100, env: MARK, stopped: true });
      w.add(202, { pgid: 202, starttime: 1200, env: MARK, ignoresTerm: true });
    });
    await teardown(scriptedLeader(world, LEADER), deps);
    expect(world.procs.get(201)!.alive).toBe(false);
    expect(world.signalled(201)).toEqual(['SIGTERM', 'SIGCONT']);
    expect(world.signalled(202)).toEqual(['SIGTERM', 'SIGCONT', 'SIGKILL']);
  });

  it('a process forked while draining is found and signalled at the current stage', async () => {
    const { world, deps } = setup((w) => {
      w.add(201, { pgid: 201, starttime: 1100, env: MARK, ignoresTerm: true });
    });
    const kill = world.kill.bind(world);
    let forked = false;
    world.kill = (target, signal) => {
      kill(target, signal);
      if (!forked && target === 201 && signal === 'SIGTERM') {
        forked = true;
        world.add(202, { pgid: 202, starttime: 1500, ppid: 201, env: MARK, ignoresTerm: true });
      }
    };
    await teardown(scriptedLeader(world, LEADER), deps);
    expect(world.signalled(202)).toContain('SIGKILL');
    expect(world.procs.get(202)!.alive).toBe(false);
  });

  it('a marked survivor fails close() with process_group_did_not_exit (scope owner_marker)', async () => {
    const { world, deps } = setup((w) => {
      w.add(201, { pgid: 201, starttime: 1100, env: MARK, ignoresTerm: true, ignoresKill: true });
    });
    const err = await failure(teardown(scriptedLeader(world, LEADER), deps));
    expect(err.code).toBe('process_group_did_not_exit');
    expect(err.detail).toEqual({ survivors: 1, scope: 'owner_marker' });
  });

  it('an unreadable listing fails close() as unverified; a later attempt succeeds', async () => {
    const { world, deps } = setup((w) => {
      w.add(201, { pgid: 201, starttime: 1100, env: MARK });
    });
    const leader = scriptedLeader(world, LEADER);
    const listPids = world.listPids.bind(world);
    let unreadable = true;
    world.listPids = () => (unreadable ? { kind: 'unknown', reason: 'scripted' } : listPids());
    const err = await failure(teardown(leader, deps));
    expect(err.code).toBe('group_cleanup_unverified');
    unreadable = false;
    await teardown(leader, deps);
    expect(world.procs.get(201)!.alive).toBe(false);
  });

  it('the marker sweep still runs when the group sweep failed', async () => {
    const { world, deps } = setup((w) => {
      w.add(150, {
        pgid: LEADER,
        starttime: 1050,
        env: MARK,
        ignoresTerm: true,
        ignoresKill: true,
      });
      w.add(201, { pgid: 201, starttime: 1100, env: MARK });
    });
    const err = await failure(teardown(scriptedLeader(world, LEADER), deps));
    expect(err.code).toBe('process_group_did_not_exit');
    expect(world.procs.get(201)!.alive).toBe(false);
  });
});
