import type { ErrorCode } from '@eln/shared';
import { AppError } from './errors.js';

/** The answer a policy gives for each reason it refuses: every verdict other than `allowed` names its code. */
export type Refusals<Verdict extends string> = Record<Exclude<Verdict, 'allowed'>, ErrorCode>;

/** Goes on when the verdict allows; otherwise refuses with the code the policy gives for its reason. */
export function enforce<Verdict extends string>(verdict: Verdict, refusals: Refusals<Verdict>): void {
  if (verdict !== 'allowed') throw new AppError(refusals[verdict as Exclude<Verdict, 'allowed'>]);
}
