/**
 * Bounds both sides of the SPI rely on. A provider keeps within them and the runtime enforces
 * them, so each is written once, here, rather than as two constants that can drift apart.
 */
export const SPI_LIMITS = Object.freeze({
  /**
   * Run emissions a provider may make before `startRun` has returned its run (docs/spi.md §10.3).
   * The runtime stages exactly this many; a provider that would exceed it fails the run instead.
   */
  preBindingEmissions: 256,
  /** Settled interactions each side remembers so an exact retry of an answer stays a no-op. */
  rememberedSettlements: 1024,
});

export type SpiLimits = typeof SPI_LIMITS;
