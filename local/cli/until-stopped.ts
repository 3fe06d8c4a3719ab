/** Resolves when the process is asked to stop (Ctrl-C or a service manager's SIGTERM), so a server can close cleanly. */
export const untilStopped = (): Promise<void> =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
