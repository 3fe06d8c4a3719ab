/**
 * Context budget: does a capped log keep the line that decides the investigation?
 *
 * Generates realistic application logs (INFO request noise with ids and latencies from six services,
 * periodic benign WARNs, a trickle of benign ERRORs) of 10k to 200k lines from a seeded PRNG, plants a
 * handful of decisive lines (a failed migration, an OOM, an AccessDenied, ...) at random positions, and
 * caps each log to 10,000 tokens with `capLines` and with the plain head+tail cut. Reported: the mean
 * fraction of planted lines each keeps (target for ours: 1.0) and how much smaller our output is.
 *
 * `npx tsx bench/context-budget.ts` prints the JSON.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { capLines, cappedLinesTokens, headTailLines } from '../lib/context/cap-log-lines.ts';
import { estimateTokens } from '../lib/context/token-estimate.ts';
import { seededRandom as mulberry32 } from '../lib/random/seeded-random.ts';

export interface ContextBudgetBench {
  ours: number;
  headTail: number;
  capTokens: number;
  compressionRatio: number;
  cases: { lines: number; planted: number; ours: number; headTail: number }[];
}

const capTokens = 10_000;
const sizes = [10_000, 50_000, 100_000, 200_000] as const;

export async function runContextBudgetBench(): Promise<ContextBudgetBench> {
  const cases: ContextBudgetBench['cases'] = [];
  let originalTokens = 0;
  let keptTokens = 0;
  for (const [caseIndex, size] of sizes.entries()) {
    const random = mulberry32(0x5eed + caseIndex);
    const { lines, planted } = generateLog(size, random);
    const ours = capLines(lines, capTokens);
    const naive = headTailLines(lines, capTokens);
    const oursKept = new Set(ours.kept);
    const naiveKept = new Set(naive.kept);
    cases.push({
      lines: size,
      planted: planted.length,
      ours: planted.filter((line) => oursKept.has(line)).length / planted.length,
      headTail: planted.filter((line) => naiveKept.has(line)).length / planted.length,
    });
    originalTokens += estimateTokens(lines.join('\n'));
    keptTokens += cappedLinesTokens(ours);
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return {
    ours: mean(cases.map((entry) => entry.ours)),
    headTail: mean(cases.map((entry) => entry.headTail)),
    capTokens,
    compressionRatio: originalTokens / keptTokens,
    cases,
  };
}

// ── Log generation ────────────────────────────────────────────────────────────────────────────────────

type Random = () => number;


const services = ['api-gateway', 'order-service', 'payment-service', 'inventory-service', 'auth-service', 'notification-worker'] as const;

interface Template {
  level: string;
  weight: number;
  services: readonly string[];
  message(random: Random): string;
}

const int = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const hex = (random: Random, length: number) => {
  let text = '';
  for (let index = 0; index < length; index += 1) text += '0123456789abcdef'[Math.floor(random() * 16)];
  return text;
};
const uuid = (random: Random) => `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-a${hex(random, 3)}-${hex(random, 12)}`;
const latency = (random: Random) => Math.round(-Math.log(1 - random()) * 60 + 3);

const noise: readonly Template[] = [
  { level: 'INFO', weight: 30, services: ['api-gateway'], message: (r) => `GET /api/orders/${int(r, 10000, 99999)} 200 ${latency(r)}ms req=${uuid(r)}` },
  { level: 'INFO', weight: 12, services: ['api-gateway'], message: (r) => `POST /api/checkout 201 ${latency(r) * 3}ms user=u-${int(r, 1000, 99999)} cart_items=${int(r, 1, 12)}` },
  { level: 'INFO', weight: 10, services: ['inventory-service'], message: (r) => `cache hit key=product:${int(r, 1, 50000)} ttl=${int(r, 10, 3600)}s` },
  { level: 'INFO', weight: 8, services: ['order-service'], message: (r) => `processed message ${uuid(r)} from queue orders-events in ${latency(r)}ms` },
  { level: 'INFO', weight: 8, services: ['order-service', 'payment-service'], message: (r) => `db query orders.select_by_customer rows=${int(r, 0, 40)} took ${latency(r)}ms` },
  { level: 'INFO', weight: 8, services: ['auth-service'], message: (r) => `token validated for user u-${int(r, 1000, 99999)} scopes=read,write client=web-${int(r, 1, 9)}` },
  { level: 'INFO', weight: 6, services: ['payment-service'], message: (r) => `charge authorized amount=${(r() * 400).toFixed(2)} currency=USD psp_ref=ch_${hex(r, 24)}` },
  { level: 'INFO', weight: 4, services: ['notification-worker'], message: (r) => `sent email template=order_shipped to customer c-${int(r, 1000, 99999)} in ${latency(r)}ms` },
  { level: 'INFO', weight: 2, services, message: (r) => `health check ok uptime=${int(r, 100, 900000)}s heap_used=${int(r, 80, 900)}MB` },
  { level: 'DEBUG', weight: 5, services, message: (r) => `span ${hex(r, 16)} finished parent=${hex(r, 16)} duration_us=${int(r, 10, 90000)}` },
  // Benign warnings: periodic, plentiful, and not the cause.
  { level: 'WARN', weight: 1.2, services: ['inventory-service'], message: (r) => `slow query on inventory.reserve took ${int(r, 501, 1900)}ms (threshold 500ms)` },
  { level: 'WARN', weight: 0.8, services: ['payment-service'], message: () => `retrying request to payments-provider attempt 1/3 after 429 Too Many Requests` },
  { level: 'WARN', weight: 0.5, services: ['order-service'], message: (r) => `connection pool utilization at ${int(r, 80, 95)}% (max 50)` },
  { level: 'WARN', weight: 0.4, services: ['api-gateway'], message: (r) => `deprecated header X-Client-Version received from 10.0.${int(r, 0, 255)}.${int(r, 1, 254)}` },
  // Benign errors: a steady trickle that every production log has.
  { level: 'ERROR', weight: 0.15, services: ['api-gateway'], message: (r) => `upstream request failed: 502 Bad Gateway from recommendations-svc req=${uuid(r)}` },
  { level: 'ERROR', weight: 0.1, services: ['api-gateway'], message: (r) => `client disconnected before response was sent (EPIPE) req=${uuid(r)}` },
  { level: 'INFO', weight: 0.05, services: ['auth-service'], message: (r) => `login failed for user u-${int(r, 1000, 99999)}: wrong password (attempt ${int(r, 1, 3)})` },
];

/** Decisive lines: each one names the cause of an incident, and each appears once. */
const decisive: readonly { service: string; level: string; message: string }[] = [
  { service: 'order-service', level: 'FATAL', message: 'migration 0042 failed: column "sku_v2" does not exist' },
  { service: 'inventory-service', level: 'ERROR', message: 'java.lang.OutOfMemoryError: Java heap space at com.shop.inventory.StockCache.load(StockCache.java:212)' },
  { service: 'notification-worker', level: 'ERROR', message: 'AccessDenied: User arn:aws:sts::123456789012:assumed-role/export-role/i-0abc12 is not authorized to perform s3:PutObject on resource arn:aws:s3:::shop-exports/2026/04/06/orders.csv' },
  { service: 'payment-service', level: 'FATAL', message: 'panic: runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV code=0x1 addr=0x18]' },
  { service: 'order-service', level: 'ERROR', message: 'Task timed out after 30.03 seconds' },
  { service: 'payment-service', level: 'ERROR', message: 'KMSInvalidStateException: arn:aws:kms:us-east-1:123456789012:key/7c1f0a2e is disabled; Decrypt failed' },
  { service: 'inventory-service', level: 'CRITICAL', message: 'process killed by OOM killer: RSS 3.9GB exceeds container limit 4GB' },
  { service: 'order-service', level: 'ERROR', message: 'ConditionalCheckFailedException on table orders-prod: The conditional request failed' },
];

function generateLog(size: number, random: Random): { lines: string[]; planted: string[] } {
  const totalWeight = noise.reduce((sum, template) => sum + template.weight, 0);
  const choose = (): Template => {
    let roll = random() * totalWeight;
    for (const template of noise) if ((roll -= template.weight) < 0) return template;
    return noise[0]!;
  };
  let clock = Date.parse('2026-04-06T03:00:00.000Z');
  const line = (service: string, level: string, message: string) => `${new Date(clock).toISOString()} ${service} ${level} ${message}`;
  const lines: string[] = [];
  for (let index = 0; index < size; index += 1) {
    clock += int(random, 1, 40);
    const template = choose();
    lines.push(line(pick(random, template.services), template.level, template.message(random)));
  }
  // 5-10 decisive lines (of the 8 above, with repeats when more than 8) at random positions.
  const count = int(random, 5, 10);
  const planted: string[] = [];
  const used = new Set<number>();
  for (let index = 0; index < count; index += 1) {
    let position = Math.floor(random() * size);
    while (used.has(position)) position = Math.floor(random() * size);
    used.add(position);
    const at = Date.parse(lines[position]!.slice(0, 24));
    const chosen = decisive[(index + Math.floor(random() * decisive.length)) % decisive.length]!;
    // The request id makes a repeated decisive message a distinct line, as it would be in a real log.
    const text = `${new Date(at).toISOString()} ${chosen.service} ${chosen.level} ${chosen.message} (trace=${hex(random, 16)})`;
    lines[position] = text;
    planted.push(text);
  }
  return { lines, planted };
}

if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  const started = performance.now();
  const result = await runContextBudgetBench();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.stderr.write(`context-budget: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
