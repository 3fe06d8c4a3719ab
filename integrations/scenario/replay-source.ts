import type { Investigation } from '../../lib/domain/investigation.ts';
import type { InvestigationStore } from '../../lib/store/port.ts';
import type { ToolSource } from '../../lib/tools/source.ts';
import { Toolbox } from '../../lib/tools/toolbox.ts';
import { replaySnapshot, scenarioTools } from './index.ts';

/** Serves tools over a recorded environment stored as a snapshot; investigations without one get no tools. */
export class ScenarioReplaySource implements ToolSource {
  constructor(private readonly store: InvestigationStore) {}

  async load(investigation: Investigation): Promise<{ toolbox: Toolbox; now: Date }> {
    const ref = investigation.toolSource;
    if (ref.kind === 'none') return { toolbox: new Toolbox([]), now: new Date(investigation.createdAt) };
    if (ref.kind !== 'scenario-replay') throw new Error(`the scenario replay source cannot serve a ${ref.kind} investigation`);
    const stored = await this.store.snapshot(ref.snapshot);
    if (stored === undefined) throw new Error(`recorded environment ${ref.snapshot} is missing from the store`);
    const { now, environment } = replaySnapshot.parse(stored);
    const clock = new Date(now);
    return { toolbox: new Toolbox(scenarioTools(environment, clock)), now: clock };
  }
}
