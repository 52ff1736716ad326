import { z } from 'zod';
import { jsonValueSchema } from './json.js';

/** docs/spi.md §16. The runtime-level schema additionally pins wireVersion to the current literal. */
export const providerRecoveryRecordSchema = z.strictObject({
  providerId: z.string().min(1).max(64),
  providerVersion: z.string().min(1).max(64),
  wireVersion: z.string().min(1).max(16),
  // Interpreted only by the provider named in providerId.
  opaque: jsonValueSchema,
});
export type ProviderRecoveryRecord = z.infer<typeof providerRecoveryRecordSchema>;
