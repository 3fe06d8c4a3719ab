import { Command } from 'commander';
import { DEFAULT_DATA_DIR, openLocalSession } from '../session.ts';

export const listCommand = (): Command =>
  new Command('list')
    .description('List investigations, newest first.')
    .option('--json', 'print the investigations as JSON')
    .option('--data-dir <dir>', 'where DynamoDB Local keeps its data', DEFAULT_DATA_DIR)
    .action(async (options: { json?: boolean; dataDir: string }) => {
      const session = await openLocalSession(options.dataDir);
      try {
        const investigations = await session.store.list();
        if (options.json) {
          process.stdout.write(`${JSON.stringify(investigations.map(({ finding, ...head }) => ({ ...head, rootCause: finding?.rootCause })))}\n`);
          return;
        }
        if (investigations.length === 0) process.stdout.write('No investigations yet. Try: npm start\n');
        for (const investigation of investigations) {
          const rootCause = investigation.finding ? `${investigation.finding.rootCause.service} (${investigation.finding.rootCause.category})` : '-';
          process.stdout.write(`${investigation.id}  ${investigation.status.padEnd(9)} ${investigation.createdAt}  ${rootCause}  ${investigation.triggerSummary}\n`);
        }
      } finally {
        await session.close();
      }
    });
