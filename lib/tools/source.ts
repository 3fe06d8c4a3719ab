import type { Investigation } from '../domain/investigation.ts';
import type { Toolbox } from './toolbox.ts';

/** The tool-source port: the tools one investigation may use, and its clock. */
export interface ToolSource {
  load(investigation: Investigation): Promise<{ toolbox: Toolbox; now: Date }>;
}
