import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const lines = linesFrom(START);

/**
 * Two functions that do not call each other, both on a shared library layer: the layer published a
 * new version at `publishedAt`, the signer took it up at minute 40 and the thumbnailer at minute 50.
 */
const layerTakenUp = ({
  publishedAt = 30,
  thumbnailerFails = true,
  layerChangeKind = 'deploy',
  layerChangedBy,
  thumbnailerError = "ModuleNotFoundError: No module named 'orjson.orjson'",
}: { publishedAt?: number; thumbnailerFails?: boolean; layerChangeKind?: string; layerChangedBy?: string; thumbnailerError?: string } = {}) =>
  diagnose(
    boardFrom({
      services: [
        { name: 'signer', kind: 'lambda', dependsOn: ['shared-layer', 'envelopes-table'] },
        { name: 'thumbnailer', kind: 'lambda', dependsOn: ['shared-layer', 'documents-bucket'] },
        { name: 'shared-layer', kind: 'other' },
        { name: 'envelopes-table', kind: 'dynamodb' },
        { name: 'documents-bucket', kind: 's3' },
      ],
      changes: [
        { service: 'shared-layer', timestamp: at(START, publishedAt), kind: layerChangeKind, summary: 'PublishLayerVersion: obs-python version 23 published', ...(layerChangedBy ? { actor: layerChangedBy } : {}) },
        { service: 'signer', timestamp: at(START, 40), kind: 'config', summary: 'UpdateFunctionConfiguration on signer (Layers)' },
        { service: 'thumbnailer', timestamp: at(START, 50), kind: 'config', summary: 'UpdateFunctionConfiguration on thumbnailer (Layers)' },
      ],
      metrics: [
        { service: 'signer', name: 'Errors', points: series(START, 120, step(42, 0, 12)) },
        { service: 'thumbnailer', name: 'Errors', points: series(START, 120, thumbnailerFails ? step(52, 0, 20) : () => 0) },
      ],
      logs: sorted([
        ...lines('signer', 42, 3, 20, 'ERROR', () => "Runtime.ImportModuleError: Unable to import module 'handler': No module named 'orjson.orjson'"),
        ...(thumbnailerFails ? lines('thumbnailer', 52, 3, 20, 'ERROR', () => thumbnailerError) : lines('thumbnailer', 0, 5, 24, 'INFO', (index) => `thumbnail ${index} written`)),
      ]),
    }),
  );

describe('services that fail independently after a dependency they share changed fail because of that change', () => {
  it('blames the layer both functions failed on after taking up its new version', () => {
    const diagnosis = layerTakenUp();
    expect(diagnosis.root).toBe('shared-layer');
    expect(diagnosis.principles).toContain('shared-dependency-changed');
    expect(diagnosis.draft.rootCause.category).toBe('deploy');
  });

  it('one function failing after its own change is its own fault, whatever the layer did', () => {
    const diagnosis = layerTakenUp({ thumbnailerFails: false });
    expect(diagnosis.root).toBe('signer');
    expect(diagnosis.principles).not.toContain('shared-dependency-changed');
  });

  it('a change of the layer made after the failures began explains none of them', () => {
    const diagnosis = layerTakenUp({ publishedAt: 45 });
    expect(diagnosis.principles).not.toContain('shared-dependency-changed');
  });

  it('a provider\'s maintenance of what both use gives them nothing new to run with', () => {
    const diagnosis = layerTakenUp({ layerChangeKind: 'infrastructure' });
    expect(diagnosis.principles).not.toContain('shared-dependency-changed');
  });

  it('a change an AWS service made on its own schedule (its service principal the actor) is not one they take up', () => {
    expect(layerTakenUp({ layerChangeKind: 'config', layerChangedBy: 'lambda.amazonaws.com' }).principles).not.toContain('shared-dependency-changed');
    expect(layerTakenUp({ layerChangeKind: 'config', layerChangedBy: 'platform-team@example.com' }).principles).toContain('shared-dependency-changed');
  });

  it('functions failing each in its own way share no fault through the layer', () => {
    const diagnosis = layerTakenUp({ thumbnailerError: 'render timeout after 5000ms for page 1 (font cache rebuild in progress)' });
    expect(diagnosis.principles).not.toContain('shared-dependency-changed');
  });
});
