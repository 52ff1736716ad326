/**
 * Races file references the way an attacker in the workspace would: a worker thread flips, as
 * fast as it can and with atomic renames only, (a) `pic.png` between a regular file and a symlink
 * to an image outside the workspace and (b) the directory `d` between a real directory and a
 * symlink to an outside directory holding `pic.png`. The main thread is never blocked by it.
 */
import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

const WORKER = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { ws, outside, stop } = workerData;
const flag = new Int32Array(stop);
const at = (name) => path.join(ws, name);
let flips = 0;
// each state is held a varying 0-2 ms, so some checks pass and the read races the next flip
const hold = () => Atomics.wait(flag, 3, 0, flips % 3);
while (Atomics.load(flag, 0) === 0) {
  try {
    fs.symlinkSync(path.join(outside, 'pic.png'), at('.tmp-link'));
    fs.renameSync(at('.tmp-link'), at('pic.png'));
    fs.renameSync(at('d'), at('.d-parked'));
    fs.symlinkSync(outside, at('.tmp-dir-link'));
    fs.renameSync(at('.tmp-dir-link'), at('d'));
    hold();
    fs.linkSync(at('master.png'), at('.tmp-file'));
    fs.renameSync(at('.tmp-file'), at('pic.png'));
    fs.renameSync(at('d'), at('.tmp-dir-link'));
    fs.unlinkSync(at('.tmp-dir-link'));
    fs.renameSync(at('.d-parked'), at('d'));
    hold();
    flips += 1;
  } catch (error) {
    Atomics.store(flag, 1, 1);
    throw error;
  }
}
Atomics.store(flag, 2, flips);
`;

export interface Swapper {
  /** Stops the worker and resolves with how many full flip cycles it made. */
  stop(): Promise<number>;
}

/** Lays out the racing files (inside image `inside`, outside image `outsideImage`) and starts. */
export function startSwapper(
  ws: string,
  outside: string,
  inside: Buffer,
  outsideImage: Buffer,
): Swapper {
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'pic.png'), outsideImage);
  writeFileSync(join(ws, 'master.png'), inside);
  linkSync(join(ws, 'master.png'), join(ws, 'pic.png'));
  mkdirSync(join(ws, 'd'));
  writeFileSync(join(ws, 'd', 'pic.png'), inside);
  const stop = new SharedArrayBuffer(16);
  const flag = new Int32Array(stop);
  const worker = new Worker(WORKER, { eval: true, workerData: { ws, outside, stop } });
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      resolve();
    }),
  );
  worker.on('error', () => undefined); // reported through the flag
  return {
    async stop() {
      Atomics.store(flag, 0, 1);
      // bounded: a worker that does not see the flag within 5 s is terminated
      const timer = setTimeout(() => void worker.terminate(), 5_000);
      await exited;
      clearTimeout(timer);
      if (Atomics.load(flag, 1) !== 0) throw new Error('the swapper failed');
      return Atomics.load(flag, 2);
    },
  };
}
