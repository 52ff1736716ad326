/**
 * Ctrl-C as a person expects it: the first press interrupts the turn (the session stays), the
 * second disposes the session and the command exits 130. Presses arrive as SIGINT, or — while
 * a prompt holds the terminal in raw mode — from the prompt itself.
 */
export interface CtrlCHandlers {
  /** First press: interrupt the active turn. */
  readonly interrupt: () => void;
  /** Second press: give up on the session. */
  readonly quit: () => void;
}

export class CtrlC {
  private presses = 0;
  private uninstall: (() => void) | undefined;

  constructor(private readonly handlers: CtrlCHandlers) {}

  get count(): number {
    return this.presses;
  }

  press(): void {
    this.presses += 1;
    if (this.presses === 1) this.handlers.interrupt();
    else if (this.presses === 2) this.handlers.quit();
  }

  /** Listens for SIGINT (replacing Node's default exit) until `dispose()`. */
  install(proc: NodeJS.Process = process): this {
    const onSigint = (): void => {
      this.press();
    };
    proc.on('SIGINT', onSigint);
    this.uninstall = () => proc.off('SIGINT', onSigint);
    return this;
  }

  dispose(): void {
    this.uninstall?.();
    this.uninstall = undefined;
  }
}
