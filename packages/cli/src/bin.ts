#!/usr/bin/env node
import { main } from './program.js';

const code = await main(process.argv, {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
});
// a reader that went away (`| head`) leaves nothing to drain
if (process.stdout.destroyed) process.exit(code);
// Let stdout drain (a pipe reader must see every line), then leave even if a handle lingers.
process.stdout.write('', () => {
  process.exit(code);
});
