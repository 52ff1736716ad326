#!/usr/bin/env node
import { main } from './program.js';

const code = await main(process.argv, {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
});
// Let stdout drain (a pipe reader must see every line), then leave even if a handle lingers.
process.stdout.write('', () => {
  process.exit(code);
});
