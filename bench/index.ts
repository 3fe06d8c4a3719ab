/**
 * `npm run bench [-- --json]`: measured ratios from one run on this machine; never asserted by tests.
 *   masking: throughput over a >= 50 MB generated AWS log corpus, the ratio to one pass of a single
 *            combined regex over the same corpus, and leaks (raw identifiers left) — target ratio >= 0.5, leaks 0.
 */
import { runMaskingBench } from './masking.ts';

const json = process.argv.includes('--json');
const log = (line: string) => {
  if (!json) process.stderr.write(`${line}\n`);
};

log('masking: generating a 50 MB corpus and timing the masker against one combined regex pass…');
const masking = await runMaskingBench();
const results = { masking };

if (json) {
  process.stdout.write(`${JSON.stringify(results)}\n`);
} else {
  process.stdout.write(
    `masking: ${masking.mbPerSec.toFixed(1)} MB/s, ${masking.ratioVsRegexScan.toFixed(2)}× a single combined-regex scan, ${masking.leaks} leaks\n`,
  );
}
