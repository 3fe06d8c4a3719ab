import { z } from 'zod';

/** The EventBridge event Step Functions sends when an execution changes status. */
export const executionStatusChange = z.object({
  'detail-type': z.literal('Step Functions Execution Status Change'),
  source: z.literal('aws.states'),
  detail: z.object({
    executionArn: z.string(),
    stateMachineArn: z.string(),
    /** The execution name: the investigation id. */
    name: z.string(),
    status: z.enum(['RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED', 'PENDING_REDRIVE']),
    startDate: z.number().nullable().optional(),
    stopDate: z.number().nullable().optional(),
  }),
});
export type ExecutionStatusChange = z.infer<typeof executionStatusChange>;

export const lifecycleTypes = ['investigation.started', 'investigation.completed', 'investigation.failed', 'investigation.cancelled', 'approval.requested'] as const;
export type LifecycleType = (typeof lifecycleTypes)[number];

/** What other systems can subscribe to on the event bus. */
export interface LifecycleEvent {
  type: LifecycleType;
  investigationId: string;
  detail: Record<string, unknown>;
}

/** The port to the event bus. */
export interface LifecyclePublisher {
  publish(event: LifecycleEvent): Promise<void>;
}

/** Undefined for statuses that are not a lifecycle step (a pending redrive). */
export const lifecycleTypeOf = (status: ExecutionStatusChange['detail']['status']): LifecycleType | undefined => {
  switch (status) {
    case 'RUNNING':
      return 'investigation.started';
    case 'SUCCEEDED':
      return 'investigation.completed';
    case 'FAILED':
    case 'TIMED_OUT':
      return 'investigation.failed';
    case 'ABORTED':
      return 'investigation.cancelled';
    default:
      return undefined;
  }
};
