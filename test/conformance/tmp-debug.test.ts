import { it } from 'vitest';
import { runProviderConformance } from '@relvo-labs/agent-provider/testing';
import { codexHarness } from './codex-harness.js';

it('debug', async () => {
  const h = codexHarness();
  const create = h.create.bind(h);
  let last: ReturnType<typeof create> | undefined;
  h.create = () => { last = create(); return last; };
  const report = await runProviderConformance({ ...h, nativeIdentifiers: ['thread-native-', 'Red'], secretMarkers: ['sk-CONF', 'codex'] });
  console.log(report.checks.filter((c) => c.status !== 'passed'));
  console.log(last?.driver.effects());
});
