import { z } from 'zod';
import { analyzeIncidentContract } from '../tools/contracts/analyze-incident.ts';
import { surveyCalls } from '../tools/contracts/survey.ts';
import { implementTool, type ToolContext, type ToolDefinition } from '../tools/tool.ts';
import { diagnose } from './diagnose.ts';
import { emptyBoard, recordResult } from './evidence-board.ts';

/** Runs one survey call on whatever source implements it; a failure or a broken contract is reported, not hidden. */
const surveyResult = async (tool: ToolDefinition, args: unknown, context: ToolContext): Promise<{ data?: unknown; problem?: string }> => {
  try {
    const result = await tool.run(tool.input.parse(args), context);
    return { data: result.data };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
};

/**
 * The deterministic analyzers the offline analyst decides with, offered to hosted models as one
 * tool over any tool source: it runs the same survey the analyst starts with, reads each result
 * through its contract, and returns the analysis.
 */
export const analyzeIncident = (survey: readonly ToolDefinition[]) =>
  implementTool(analyzeIncidentContract, {
    sideEffect: 'read-only',
    iamActions: [...new Set(survey.flatMap((tool) => tool.iamActions))],
    run: async (input, context) => {
      const board = emptyBoard([input.alertText, input.alertingService].filter(Boolean).join('\n'));
      const failed: { tool: string; problem: string }[] = [];
      for (const [index, call] of surveyCalls(input.sinceMinutes, 'WARN').entries()) {
        const tool = survey.find((candidate) => candidate.name === call.contract.name);
        if (!tool) continue;
        const { data, problem } = await surveyResult(tool, call.arguments, context);
        if (problem !== undefined) failed.push({ tool: tool.name, problem });
        else recordResult(board, tool.name, `S${index + 1}`, data);
      }
      const diagnosis = diagnose(board);
      const strongest = [...diagnosis.signals]
        .filter((signal) => signal.kind !== 'alarm')
        .sort((a, b) => Number(b.substantial) - Number(a.substantial) || b.strength - a.strength)
        .slice(0, 12)
        // A failed call in a trace that gives no time for its first fault is undated.
        .map((signal) => ({ service: signal.service, kind: signal.kind, ...(Number.isFinite(signal.at) ? { at: new Date(signal.at).toISOString() } : {}), ongoing: signal.ongoing, what: signal.description }));
      const output: z.input<typeof analyzeIncidentContract.output> = {
        incident: diagnosis.incident,
        ...(diagnosis.root === undefined ? {} : { likelyOrigin: diagnosis.root }),
        ...(diagnosis.category === undefined ? {} : { category: diagnosis.category }),
        ...(diagnosis.symptom === undefined ? {} : { alertingService: diagnosis.symptom }),
        failureChainAndCandidates: diagnosis.candidates,
        suspectChange: diagnosis.suspectChange
          ? { service: diagnosis.suspectChange.service, at: diagnosis.suspectChange.timestamp, kind: diagnosis.suspectChange.kind, summary: diagnosis.suspectChange.summary }
          : null,
        explanation: diagnosis.draft.rootCause.summary,
        proposedRemediation: diagnosis.draft.remediation,
        strongestSignals: strongest,
        unreadable: [...failed, ...board.unreadable.map(({ tool, problem }) => ({ tool, problem }))],
      };
      return {
        summary: diagnosis.incident
          ? `likely origin ${diagnosis.root} (${diagnosis.category}); ${diagnosis.candidates.length} services involved`
          : 'no ongoing, substantial problem found',
        data: output,
      };
    },
  });
