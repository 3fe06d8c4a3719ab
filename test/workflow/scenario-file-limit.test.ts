import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../local/cli/main.ts';
import { loadScenario, MAX_SCENARIO_FILE_BYTES, ScenarioError } from '../../local/scenario-files.ts';

/** A sparse file: as large as asked, without writing its bytes. */
const fileOfSize = (bytes: number): string => {
  const path = join(mkdtempSync(join(tmpdir(), 'sre-agent-')), 'huge-scenario.json');
  writeFileSync(path, '{');
  truncateSync(path, bytes);
  return path;
};

afterEach(() => vi.restoreAllMocks());

describe('the scenario file size limit', () => {
  it('refuses a scenario file over the limit before reading it, naming the limit', () => {
    const path = fileOfSize(MAX_SCENARIO_FILE_BYTES + 1);
    expect(() => loadScenario(path)).toThrow(ScenarioError);
    expect(() => loadScenario(path)).toThrow(/the file is 67108865 bytes \(64 MB\), over the 64 MB \(67108864 bytes\) limit for a scenario file/);
  });

  it('exits 2 from `investigate` with the limit in the message', async () => {
    const path = fileOfSize(70 * 1024 * 1024);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await main(['node', 'sre-agent', 'investigate', '--scenario', path])).toBe(2);
    expect(stderr.mock.calls.map(([text]) => String(text)).join('')).toMatch(/\(70 MB\), over the 64 MB \(67108864 bytes\) limit for a scenario file/);
  });
});
