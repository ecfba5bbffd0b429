/**
 * fast-check commands that drive a real conversation with assign and resolve and hold it against the
 * pure model in conversation.ts. A check takes one writable conversation (ctx.data); every generated
 * sequence starts by reading its state with an assign that changes nothing, so a failure shrinks to the
 * shortest sequence. Effects are observed only through what assign and resolve answer (world.ts).
 *
 * Each check focuses on some clauses: mismatches of other clauses are left to the checks that own them
 * (the model follows the server there), so one fault produces findings under its own clause only.
 */
import fc from 'fast-check';
import type { ClauseId } from '../../src/spec/clauses.js';
import type { CheckOutcome, SuiteContext } from '../../src/conformance/suite.js';
import type { Target } from '../../src/target/schema.js';
import { CheckAbort, type Recorder, describeAnswer, errorCodeOf, statusOf } from '../../src/conformance/recorder.js';
import {
  advance,
  canonicalJson,
  compare,
  type ConversationModel,
  initialModel,
  type Op,
  predict,
  type Request,
  reusableKeys,
  type StatusTypes,
  unmaskingMove,
} from './conversation.js';
import { runProperty } from '../../src/conformance/property.js';
import { type AssignBody, assignRequest, assignValues, freshKey, type ResolveBody, resolveRequest } from './requests.js';
import { observe, shownState, writableConversation } from './world.js';

/** A status key no seeded workspace defines (valid pattern, so only "unknown" can be wrong with it). */
export const UNKNOWN_STATUS_KEY = 'spgate-undefined-status';

export interface ConversationReal {
  target: Target;
  rec: Recorder;
  conversationId: string;
  focus: ReadonlySet<ClauseId>;
  steps: number;
  /** Assignee ids and teams the target file did not supply: a 4xx refusal of one discards the run. */
  madeUp: ReadonlySet<string>;
  /** The assignee ids and teams the commands use (assignChoices). */
  values: { assigneeIds: readonly string[]; teams: readonly string[] };
}

export type KeyChoice = { kind: 'none' } | { kind: 'fresh' } | { kind: 'reuse'; n: number; sameBody: boolean };

/** The status types the target assumes (seeded workspaces: open/pending active, resolved/closed completed). */
export function statusTypesOf(target: Target): StatusTypes {
  const a = target.assumptions;
  return { active: a.activeStatuses, completed: a.completedStatuses, defaultCompleted: a.defaultCompletedStatus };
}

/** One assign or resolve request, with its key chosen against the model when it runs. */
export class OpCommand implements fc.AsyncCommand<ConversationModel, ConversationReal> {
  /** Set when a reuse found no earlier key and a fresh one was sent (shown in the sequence). */
  private fellBack = false;
  /** The keyless request sent before this retry to make a second effect visible (unmaskingMove). */
  private moved: Request | undefined;

  constructor(
    readonly op: Op,
    readonly body: AssignBody | ResolveBody,
    readonly key: KeyChoice,
  ) {}

  check(): boolean {
    return true;
  }

  private concrete(model: ConversationModel): Request {
    this.fellBack = false;
    this.moved = undefined;
    if (this.key.kind === 'none') return { op: this.op, body: this.body } as Request;
    if (this.key.kind === 'reuse') {
      const candidates = reusableKeys(model, this.op);
      const pick = candidates.length ? candidates[this.key.n % candidates.length] : undefined;
      if (pick) return { op: this.op, body: this.key.sameBody ? pick.sent : this.body, key: pick.key } as Request;
      this.fellBack = true;
    }
    return { op: this.op, body: this.body, key: freshKey() } as Request;
  }

  async run(model: ConversationModel, real: ConversationReal): Promise<void> {
    real.steps++;
    const req = this.concrete(model);
    // A retry whose second effect would leave the state as it stands shows it only by a clock tick: move the
    // state first (judged like any keyless step), so a second effect shows whatever the server's clock did.
    const move = predict(model, req).kind === 'replay' ? unmaskingMove(model, req, real.values) : undefined;
    if (move) {
      this.moved = move;
      await step(model, real, move, () => `${describe(move)} (before ${this.toString()})`);
    }
    await step(model, real, req, () => this.toString());
  }

  toString(): string {
    const k = this.key;
    const key =
      k.kind === 'none'
        ? 'no key'
        : k.kind === 'fresh' || this.fellBack
          ? 'fresh key'
          : `reused key #${k.n}${k.sameBody ? ' with its first body' : ''}`;
    return `${this.moved ? `${describe(this.moved)}, ` : ''}${this.op}(${JSON.stringify(this.body)}, ${key})`;
  }
}

function describe(req: Request): string {
  return `${req.op}(${JSON.stringify(req.body)}, no key)`;
}

/** Sends one request, holds the answer against the model (focus clauses only) and moves the model on. */
async function step(model: ConversationModel, real: ConversationReal, req: Request, label: () => string): Promise<void> {
  const prediction = predict(model, req);
  const x = await real.rec.send(
    req.op === 'assign'
      ? assignRequest(real.conversationId, req.body, req.key)
      : resolveRequest(real.target, real.conversationId, req.body, req.key),
  );
  // A step spgate gave up on cuts the sequence (recorder.ts cutBy); a reset is the server's and stays a finding.
  if (!x.response) return real.rec.require(false, `an answer to ${label()} at step ${real.steps}`, () => describeAnswer(x), [x]);
  const data = x.response.json && typeof x.response.json === 'object' ? (x.response.json as Record<string, unknown>) : undefined;
  const status = statusOf(x);
  const shown = shownState(x);
  // The spec does not require a server to accept an assignee or team it does not know.
  if (
    req.op === 'assign' &&
    prediction.kind === 'effect' &&
    status !== undefined &&
    status >= 400 &&
    status < 500 &&
    status !== 409 &&
    madeUpIn(req.body, real.madeUp)
  ) {
    real.rec.discard(`${label()} with made-up values: ${describeAnswer(x)}`);
  }
  // A replay shows the first answer or the state now; refusals show none: read it back then.
  const readBack = prediction.kind === 'effect' && shown ? undefined : await observe(real.rec, real.conversationId, model.state.team);
  const stored = readBack ? readBack.state : shown!;
  const latest = readBack ? readBack.x.response?.json : data;
  const obs = { status, body: data ? canonicalJson(data) : x.response.body, errorCode: errorCodeOf(x), shown, stored, json: data, latest };
  const mismatch = compare(model, req, prediction, obs).find((m) => real.focus.has(m.clause));
  if (mismatch) {
    throw new CheckAbort({
      expected: mismatch.expected,
      actual: `${mismatch.actual} at step ${real.steps}, ${label()}`,
      exchanges: [...real.rec.exchanges],
    });
  }
  advance(model, req, prediction, obs);
}

/** True when the body sets an assignee id or team among `madeUp` (clearing with "" never is). */
function madeUpIn(body: AssignBody, madeUp: ReadonlySet<string>): boolean {
  return (!!body.assignee?.id && madeUp.has(body.assignee.id)) || (!!body.team && madeUp.has(body.team));
}

/** The assignee ids and teams the commands use (two of each, assignValues) and which of them are made up. */
export function assignChoices(target: Target): { assigneeIds: string[]; teams: string[]; madeUp: Set<string> } {
  const v = assignValues(target);
  const assigneeIds = v.assigneeIds.slice(0, 2);
  const teams = v.teams.slice(0, 2);
  const madeUp = new Set([...(v.supplied.assigneeIds ? [] : assigneeIds), ...(v.supplied.teams ? [] : teams)]);
  return { assigneeIds, teams, madeUp };
}

/** Valid assign bodies over `values`: assignee and/or team, including the clearing empty strings. */
export function assignBodyArb(values: { assigneeIds: readonly string[]; teams: readonly string[] }): fc.Arbitrary<AssignBody> {
  const assignee = fc.constantFrom(...values.assigneeIds, '').map((id) => ({ id }));
  const team = fc.constantFrom(...values.teams, '');
  return fc.oneof(
    assignee.map((a): AssignBody => ({ assignee: a })),
    team.map((t): AssignBody => ({ team: t })),
    fc.tuple(assignee, team).map(([a, t]): AssignBody => ({ assignee: a, team: t })),
  );
}

/** Resolve bodies: absent status, completed-type keys and, when `invalid`, active-type and unknown keys. */
export function resolveBodyArb(types: StatusTypes, invalid: boolean): fc.Arbitrary<ResolveBody> {
  const keys = [...types.completed, ...(invalid ? [...types.active, UNKNOWN_STATUS_KEY] : [])];
  return fc.oneof(
    fc.constant<ResolveBody>({}),
    fc.constantFrom(...keys).map((status): ResolveBody => ({ status })),
  );
}

const keyChoiceArb: fc.Arbitrary<KeyChoice> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<KeyChoice>({ kind: 'none' }) },
  { weight: 2, arbitrary: fc.constant<KeyChoice>({ kind: 'fresh' }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('reuse' as const), n: fc.nat(3), sameBody: fc.boolean() }) },
);

/** Command arbitraries; with `keys`, requests carry fresh or reused Idempotency-Keys (valid bodies only). */
export function conversationCommands(
  types: StatusTypes,
  keys: boolean,
  values: { assigneeIds: readonly string[]; teams: readonly string[] },
): Array<fc.Arbitrary<OpCommand>> {
  if (!keys) {
    return [
      assignBodyArb(values).map((b) => new OpCommand('assign', b, { kind: 'none' })),
      resolveBodyArb(types, true).map((b) => new OpCommand('resolve', b, { kind: 'none' })),
    ];
  }
  return [
    fc.tuple(assignBodyArb(values), keyChoiceArb).map(([b, k]) => new OpCommand('assign', b, k)),
    fc.tuple(resolveBodyArb(types, false), keyChoiceArb).map(([b, k]) => new OpCommand('resolve', b, k)),
  ];
}

export interface ConversationModelOptions {
  /** Clauses this check reports; other mismatches are left to their own checks. */
  focus: ClauseId[];
  /** Whether requests carry Idempotency-Keys. */
  keys: boolean;
  maxCommands?: number;
}

/** Runs random assign/resolve sequences against one writable conversation and the model. */
export async function runConversationModel(ctx: SuiteContext, options: ConversationModelOptions): Promise<CheckOutcome> {
  const types = statusTypesOf(ctx.target);
  const values = assignChoices(ctx.target);
  const arb = fc.commands(conversationCommands(types, options.keys, values), { maxCommands: options.maxCommands ?? 6 });
  const focus = new Set(options.focus);
  // Taken before the property: running out of data skips the check instead of failing a run.
  const id = await writableConversation(ctx);
  return runProperty(
    ctx,
    arb,
    async (cmds, rec) => {
      // An unanswered read-back (observe's 200 required) is judged like an unanswered step.
      const first = await observe(rec, id, null);
      const real: ConversationReal = { target: ctx.target, rec, conversationId: id, focus, steps: 0, madeUp: values.madeUp, values };
      await fc.asyncModelRun(() => ({ model: initialModel(first.state, types, first.x.response?.json), real }), cmds);
    },
    // fast-check's own printing: a sequence reads as its commands. A busy server times out the retries that
    // wait on their first request's key, and those are the sequences the check exists for: any cut keeps it
    // from passing.
    { describe: (t) => fc.stringify(t), maxCut: 0 },
  );
}
