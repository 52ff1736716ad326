/**
 * The `relvo-codex-scripted-model` process (docs/testing.md §4.1): built to dist/scripted-model.js,
 * which the package's bin loads; tests run this file from source.
 */
import { runScriptedModelProcess } from './model-process.js';

// exit at once: nothing of the model outlives its stop
process.exit(await runScriptedModelProcess(process.argv.slice(2)));
