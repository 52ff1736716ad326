'use strict';
// Stand-in child (CommonJS so the typed lint config ignores it): says hello, then does not read
// stdin until SIGUSR2; from then on it reports the length of every line it reads.
const { createInterface } = require('node:readline');

process.stdin.pause();
process.on('SIGUSR2', () => {
  const rl = createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    process.stdout.write(`${JSON.stringify({ read: line.length })}\n`);
  });
});
process.stdout.write(`${JSON.stringify({ hello: { pid: process.pid } })}\n`);
setInterval(() => undefined, 1 << 30);
