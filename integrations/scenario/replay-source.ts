import type { Investigation } from '../../lib/domain/investigation.ts';
import type { InvestigationStore } from '../../lib/store/port.ts';
import type { ToolSource } from '../../lib/tools/source.ts';
import { Toolbox } from '../../lib/tools/toolbox.ts';
import { recordedEnvironmentTools } from './index.ts';
import { RecordedSnapshots } from './recorded-snapshots.ts';

/** Serves tools over a recorded environment stored as a snapshot; investigations without one get no tools. */
export class ScenarioReplaySource implements ToolSource {
  private readonly snapshots: RecordedSnapshots;

  constructor(store: InvestigationStore) {
    this.snapshots = new RecordedSnapshots(store);
  }

  async load(investigation: Investigation): Promise<{ toolbox: Toolbox; now: Date }> {
    const ref = investigation.toolSource;
    if (ref.kind === 'none') return { toolbox: new Toolbox([]), now: new Date(investigation.createdAt) };
    if (ref.kind !== 'scenario-replay') throw new Error(`the scenario replay source cannot serve a ${ref.kind} investigation`);
    const recorded = await this.snapshots.load(ref.snapshot);
    return { toolbox: new Toolbox(recordedEnvironmentTools(recorded)), now: recorded.now };
  }
}
