import type { Investigation, ToolSourceRef } from '../domain/investigation.ts';
import type { ToolSource } from './source.ts';
import { Toolbox } from './toolbox.ts';

/** Serves each investigation from the source its tool-source reference names; one with none gets no tools. */
export class ToolSourcesByKind implements ToolSource {
  constructor(private readonly sources: Partial<Record<Exclude<ToolSourceRef['kind'], 'none'>, ToolSource>>) {}

  async load(investigation: Investigation): Promise<{ toolbox: Toolbox; now: Date }> {
    const { kind } = investigation.toolSource;
    if (kind === 'none') return { toolbox: new Toolbox([]), now: new Date(investigation.createdAt) };
    const source = this.sources[kind];
    if (!source) throw new Error(`investigation ${investigation.id} uses the ${kind} tool source, which is not configured here`);
    return source.load(investigation);
  }
}
