import type { ExecutionInput } from '../workflow/control.ts';

/** Where an admitted investigation stands before (and besides) its workflow's own head record. */
export type AdmissionState = 'queued' | 'started' | 'cancelled';

export interface Admission {
  investigationId: string;
  state: AdmissionState;
  receivedAt: string;
  /** Every trigger that joined it, the first included. */
  triggerCount: number;
  /** It holds a running slot: it is being started, or runs. */
  holdsSlot: boolean;
  /** The execution input it starts (or started) with. */
  input: ExecutionInput;
  service?: string;
  groupKey?: string;
}

/** A trigger that joined an existing investigation instead of starting one. */
export interface JoinedTrigger {
  receivedAt: string;
  /** Which alarm or incident, in what state: `CloudWatch alarm orders-5xx is ALARM`. */
  summary: string;
  /** When it fired (the alarm's state change, the incident's creation), when the trigger says. */
  occurredAt?: string;
  occurrenceKey?: string;
}

/** What a workflow step reads of the ledger: the triggers that joined an investigation. */
export type JoinedTriggerReader = Pick<TriggerLedger, 'joinedTriggers'>;

/** `held`: this investigation already has a slot (another caller is starting it); `full`: the cap is reached. */
export type SlotClaim = 'acquired' | 'held' | 'full';

export interface InvestigationPage {
  ids: string[];
  /** Pass back to get the next (older) page; absent on the last page. */
  cursor?: string;
}

/**
 * The trigger ledger port: what the doors remember between deliveries so that a redelivered
 * event starts nothing, a storm joins one investigation, and a cap on running investigations
 * queues the rest instead of dropping them. Every method is safe under concurrent deliveries.
 */
export interface TriggerLedger {
  /** Claims a delivery or occurrence key for an investigation; the first claim wins and is returned. */
  claim(key: string, investigationId: string): Promise<{ claimed: boolean; investigationId: string }>;
  /** Points a claimed key at the investigation it finally joined. */
  reassign(key: string, investigationId: string): Promise<void>;
  /**
   * Joins the group's investigation when its last trigger arrived within the window, else opens
   * the group for the candidate. Either way the group's last trigger time becomes `at`.
   */
  joinGroup(groupKey: string, candidateId: string, at: Date, windowMs: number): Promise<{ investigationId: string; joined: boolean }>;
  /** Records a new investigation and queues it; false when one with this id was already admitted. */
  admit(admission: Omit<Admission, 'state' | 'triggerCount' | 'holdsSlot'>): Promise<boolean>;
  admission(investigationId: string): Promise<Admission | undefined>;
  setState(investigationId: string, state: AdmissionState): Promise<void>;
  attach(investigationId: string, trigger: JoinedTrigger): Promise<void>;
  joinedTriggers(investigationId: string): Promise<JoinedTrigger[]>;
  /** Takes a running slot for the investigation if fewer than `cap` are held; idempotent per investigation. */
  acquireSlot(investigationId: string, cap: number): Promise<SlotClaim>;
  /** Gives the investigation's slot back; false if it held none (a repeated end event). */
  releaseSlot(investigationId: string): Promise<boolean>;
  /** Puts an admitted investigation (back) in the queue. */
  enqueue(investigationId: string): Promise<void>;
  /** Queued investigation ids, oldest first. */
  queued(limit: number): Promise<string[]>;
  /** Removes it from the queue; false if another caller dequeued it first. */
  dequeue(investigationId: string): Promise<boolean>;
  /** Investigation ids newest first, by creation time, one page at a time. */
  investigations(limit: number, cursor?: string): Promise<InvestigationPage>;
}
