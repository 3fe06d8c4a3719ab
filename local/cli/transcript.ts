import { Command } from 'commander';
import type { TranscriptEvent } from '../../lib/domain/transcript.ts';
import { DEFAULT_DATA_DIR, openLocalSession } from '../session.ts';

const describeEvent = (event: TranscriptEvent): string => {
  const payload = event.payload as Record<string, unknown>;
  switch (event.type) {
    case 'tool.call':
      return `${String(payload.name)} ${JSON.stringify(payload.arguments)}`;
    case 'tool.result':
      return `${String(payload.ref)} ${String(payload.name)}: ${String(payload.error ?? payload.summary)}`;
    case 'model.request':
      return `${(payload.messages as unknown[]).length} messages, ${(payload.tools as unknown[]).length} tools`;
    case 'model.response': {
      const calls = (payload.toolCalls as { name: string }[]) ?? [];
      return calls.length > 0 ? `asks for ${calls.map((call) => call.name).join(', ')}` : 'final answer';
    }
    case 'finding': {
      const rootCause = payload.rootCause as { service: string; category: string };
      return `${rootCause.service} (${rootCause.category})`;
    }
    case 'error':
      return String(payload.message);
    default:
      return '';
  }
};

export const transcriptCommand = (setExitCode: (code: number) => void): Command =>
  new Command('transcript')
    .description('Print the transcript of an investigation: every model and tool exchange, in order.')
    .argument('<id>', 'the investigation id')
    .option('--json', 'print {investigation, events} as JSON')
    .option('--data-dir <dir>', 'where DynamoDB Local keeps its data', DEFAULT_DATA_DIR)
    .action(async (id: string, options: { json?: boolean; dataDir: string }) => {
      const session = await openLocalSession(options.dataDir);
      try {
        const investigation = await session.store.get(id);
        if (!investigation) {
          process.stderr.write(`sre-agent: no investigation ${id} in ${options.dataDir} (see: npx sre-agent list)\n`);
          setExitCode(2);
          return;
        }
        const events = await session.store.events(id);
        if (options.json) {
          const shown = events.map(({ seq, type, at, payload, usage }) => ({ seq, type, at, payload, ...(usage ? { usage } : {}) }));
          process.stdout.write(`${JSON.stringify({ investigation, events: shown })}\n`);
          return;
        }
        process.stdout.write(`${investigation.id} ${investigation.status} ${investigation.triggerSummary}\n`);
        for (const event of events) {
          process.stdout.write(`${String(event.seq).padStart(4)} ${event.at} ${event.type.padEnd(18)} ${describeEvent(event)}\n`);
        }
      } finally {
        await session.close();
      }
    });
