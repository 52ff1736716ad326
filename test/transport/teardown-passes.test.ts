/**
 * How many passes over /proc a teardown takes, and that the cheap paths still find everything:
 * the start-time filter of the marker sweep, the single quiet pass, the second pass when a
 * process vanished mid-pass, and the skipped pre-close scan when the exit instant is scanned.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { MarkedProcesses, OWNER_ENV_VAR } from '../../src/transport/owner-marker.js';
import { createLinuxProcProbe } from '../../src/transport/proc-probe.js';
import { teardown } from '../../src/transport/teardown.js';
import { LEADER, MARK, OWNER, ownedWorld, SELF, vanishMidPass } from '../support/owned-world.js';
import { ScriptedWorld, scriptedLeader } from '../support/scripted-probe.js';

describe('the marker sweep reads environments only of processes younger than the app-server', () => {
  it('passes over older processes unread, and still adopts a young setsid daemon and the scrubbed child of an owned process', () => {
    const { calls, marked } = ownedWorld((w) => {
      for (let pid = 10; pid < 60; pid += 1) w.add(pid, { pgid: pid, starttime: 500 + pid });
      w.add(61, { pgid: 61, starttime: 999, ppid: 1, env: MARK }); // impossible, and not read
      w.add(201, { pgid: 201, starttime: 1100, ppid: 1, env: MARK }); // setsid daemon
      w.add(202, { pgid: 202, starttime: 1200, ppid: 201, env: [] }); // env -i child
      w.add(203, { pgid: 203, starttime: 1300, ppid: 1, env: [] }); // a young stranger
    });
    marked.scan();
    expect([...marked.members.keys()].sort()).toEqual([LEADER, 201, 202]);
    // the leader (same start time) and the three younger ones; none of the 51 older ones
    expect(calls.environs.sort()).toEqual([LEADER, 201, 202, 203]);
  });

  it('without a start time every process is read, as before', () => {
    const world = new ScriptedWorld();
    for (let pid = 10; pid < 20; pid += 1) world.add(pid, { pgid: pid, starttime: 500 });
    let reads = 0;
    const markerOf = world.markerOf.bind(world);
    world.markerOf = (pid, entry) => {
      reads += 1;
      return markerOf(pid, entry);
    };
    new MarkedProcesses(world, OWNER, SELF).scan();
    expect(reads).toBe(10);
  });
});

describe('passes over /proc per teardown', () => {
  it('an idle teardown with nothing owned takes one pass after the exit and signals nothing', async () => {
    const { world, calls, deps } = ownedWorld((w) => {
      for (let pid = 10; pid < 60; pid += 1) w.add(pid, { pgid: pid, starttime: 500 + pid });
    });
    const leader = { ...scriptedLeader(world, LEADER), scannedAtExit: true };
    await teardown(leader, deps);
    expect(calls.listings).toBe(1);
    expect(world.kills).toEqual([]);
  });

  it('without a scan at the exit instant the group is scanned while the leader lives, before stdin closes', async () => {
    const { world, calls, group, deps } = ownedWorld((w) => {
      w.add(201, { pgid: LEADER, starttime: 1001 });
    });
    const leader = scriptedLeader(world, LEADER);
    let listingsAtEof = -1;
    const endStdin = leader.endStdin.bind(leader);
    await teardown(
      {
        ...leader,
        endStdin: () => {
          listingsAtEof = calls.listings;
          expect(group.members.has(201)).toBe(true);
          endStdin();
        },
      },
      deps,
    );
    expect(listingsAtEof).toBe(1);
    expect(world.signalled(201)).toEqual(['SIGTERM']);
  });

  it('a process that vanishes mid-pass triggers a second pass, which finds what it forked', async () => {
    const { world, calls, deps } = ownedWorld((w) => {
      w.add(201, { pgid: 201, starttime: 1100, ppid: 1, env: MARK });
    });
    vanishMidPass(world);
    const leader = { ...scriptedLeader(world, LEADER), scannedAtExit: true };
    await teardown(leader, deps);
    expect(world.signalled(202)).toEqual(['SIGTERM']);
    expect(world.procs.get(202)!.alive).toBe(false);
    expect(calls.listings).toBeGreaterThanOrEqual(2);
  });

  it('after a drain the marker sweep takes a fresh pass: a marked process the group drain did not kill is found', async () => {
    const { world, deps } = ownedWorld((w) => {
      w.add(150, { pgid: LEADER, starttime: 1050, env: MARK, ignoresTerm: true });
      w.add(201, { pgid: 201, starttime: 1100, env: MARK });
    });
    // while the group drains, a group member starts a setsid daemon
    const kill = world.kill.bind(world);
    world.kill = (target, signal) => {
      kill(target, signal);
      if (target === 150 && signal === 'SIGTERM')
        world.add(202, { pgid: 202, starttime: 1060, ppid: 1, env: MARK });
    };
    const leader = { ...scriptedLeader(world, LEADER), scannedAtExit: true };
    deps.group?.scan('leader_alive');
    await teardown(leader, deps);
    expect(world.procs.get(150)!.alive).toBe(false);
    expect(world.procs.get(201)!.alive).toBe(false);
    expect(world.procs.get(202)!.alive).toBe(false);
  });
});

describe('the Linux probe reads /proc files of any size', () => {
  it('finds the marker at the end of an environment far larger than its read buffer', async () => {
    const entry = `${OWNER_ENV_VAR}=large-environment-check`;
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], {
      env: {
        // one string may not exceed 128 KiB; three of 60 KB outgrow the 16 KiB read buffer
        BIG1: 'x'.repeat(60_000),
        BIG2: 'y'.repeat(60_000),
        BIG3: 'z'.repeat(60_000),
        [OWNER_ENV_VAR]: 'large-environment-check',
      },
      stdio: 'ignore',
    });
    try {
      await once(child, 'spawn');
      const probe = createLinuxProcProbe();
      expect(probe.markerOf(child.pid!, entry)).toBe('marked');
      expect(probe.markerOf(child.pid!, `${OWNER_ENV_VAR}=other`)).toBe('unmarked');
      const ev = probe.statOf(child.pid!);
      expect(ev.kind).toBe('stat');
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
});
