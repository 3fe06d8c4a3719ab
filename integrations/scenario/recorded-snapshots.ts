import type { InvestigationStore } from '../../lib/store/port.ts';
import { replaySnapshot } from './index.ts';
import { RecordedEnvironment } from './recorded-environment.ts';

/**
 * Recorded environments by snapshot key, validated and indexed once per process. Snapshot keys are
 * content hashes, so a snapshot never changes: every later step (and every tool call in it) reuses
 * the indexed copy instead of re-reading and re-checking the whole environment. One is kept: a
 * process serves one investigation's environment at a time.
 */
export class RecordedSnapshots {
  private latest: { key: string; environment: Promise<RecordedEnvironment> } | undefined;

  constructor(private readonly store: InvestigationStore) {}

  load(key: string): Promise<RecordedEnvironment> {
    if (this.latest?.key === key) return this.latest.environment;
    const environment = this.read(key);
    this.latest = { key, environment };
    environment.catch(() => {
      if (this.latest?.key === key) this.latest = undefined;
    });
    return environment;
  }

  private async read(key: string): Promise<RecordedEnvironment> {
    const stored = await this.store.snapshot(key);
    if (stored === undefined) throw new Error(`recorded environment ${key} is missing from the store`);
    const { now, environment } = replaySnapshot.parse(stored);
    return new RecordedEnvironment(environment, new Date(now));
  }
}
