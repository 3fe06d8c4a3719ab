/**
 * `npm run bench [-- --json]`: measured ratios from one run on this machine; never asserted by tests.
 *   contextBudget: for logs of 10,000 to 200,000 lines with decisive lines planted at random positions, the
 *            fraction of them kept at a 10,000-token per-result cap, ours vs plain head+tail — target ours 1.0.
 *   masking: throughput over a >= 50 MB generated AWS log corpus, the ratio to one pass of a single
 *            combined regex over the same corpus, and leaks (raw identifiers left) — target ratio >= 0.5, leaks 0.
 *   transcript: a scripted 30-turn investigation's stored transcript bytes over the bytes of its distinct
 *            messages — target ratio <= 1.5 (each message stored once).
 */
import { runContextBudgetBench } from './context-budget.ts';
import { runMaskingBench } from './masking.ts';
import { runTranscriptBench } from './transcript.ts';

const json = process.argv.includes('--json');
const log = (line: string) => {
  if (!json) process.stderr.write(`${line}\n`);
};

log('masking: generating a 50 MB corpus and timing the masker against one combined regex pass…');
const masking = await runMaskingBench();
log('contextBudget: planting decisive lines in 10k-200k line logs and capping them at 10,000 tokens…');
const { ours, headTail, capTokens, compressionRatio, cases } = await runContextBudgetBench();
log('transcript: running a scripted 30-turn investigation on DynamoDB Local and measuring its stored transcript…');
const transcript = await runTranscriptBench();
const results = { contextBudget: { ours, headTail, capTokens, compressionRatio, cases }, masking, transcript };

if (json) {
  process.stdout.write(`${JSON.stringify(results)}\n`);
} else {
  process.stdout.write(
    `contextBudget: ours keeps ${(ours * 100).toFixed(0)}% of decisive lines, head+tail ${(headTail * 100).toFixed(0)}% at ${capTokens} tokens (compression ${compressionRatio.toFixed(0)}×)\n` +
    `masking: ${masking.mbPerSec.toFixed(1)} MB/s, ${masking.ratioVsRegexScan.toFixed(2)}× a single combined-regex scan, ${masking.leaks} leaks\n` +
    `transcript: ${transcript.turns} turns store ${transcript.storedBytes} bytes for ${transcript.uniqueBytes} bytes of distinct messages (ratio ${transcript.ratio.toFixed(2)})\n`,
  );
}
