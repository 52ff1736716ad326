'use strict';
// Stand-in child (CommonJS so the typed lint config ignores it) that starts a grandchild in its own process group, then exits on request.
// STANDIN_GRANDCHILD_STDOUT=inherit makes the grandchild hold the stdout pipe after we exit.
const { spawn } = require('node:child_process');
const { createInterface } = require('node:readline');

const holdStdout = process.env.STANDIN_GRANDCHILD_STDOUT === 'inherit';
const grandchild = spawn(
  process.execPath,
  ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);"],
  { stdio: ['ignore', holdStdout ? 'inherit' : 'ignore', 'ignore'] },
);
grandchild.unref();
process.stdout.write(
  `${JSON.stringify({ hello: { pid: process.pid, grandchild: grandchild.pid } })}\n`,
);

const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  if (JSON.parse(line).cmd === 'exit') {
    process.stdout.write(`${JSON.stringify({ bye: true })}\n`, () => process.exit(0));
  }
});
