import type { IncomingMessage, Inhibitor, InhibitorContext, Logger, Verdict } from '@mycelo/septum'
import { DEFAULT_DEADLINES, DeadlineExceeded, isThenable, raceDeadline } from '../supervision/deadline.ts'
import { InFlight } from '../supervision/in-flight.ts'

/** One inhibitor as admission sees it: usable with an instance, or unusable with a reason. */
export type AdmissionMember =
  | {
      readonly name: string
      readonly enforcing: boolean
      readonly usable: true
      readonly inhibitor: Inhibitor
      readonly context: InhibitorContext
    }
  | { readonly name: string; readonly enforcing: boolean; readonly usable: false; readonly reason: string }

type UsableMember = Extract<AdmissionMember, { usable: true }>

/** An inspect() that answered with a promise, and where the chain stands while it waits. */
interface PendingVerdict {
  readonly answer: PromiseLike<Verdict>
  readonly members: readonly AdmissionMember[]
  readonly index: number
  readonly message: IncomingMessage
}

export type Admission =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly by: string; readonly reason: string }

const ADMITTED: Admission = { admitted: true }

const byName = (a: AdmissionMember, b: AdmissionMember) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)

export interface AdmissionOptions {
  /**
   * The inhibitors as they stand now, read at every message so that one failing to start is
   * refused from then on: a new list whenever one changed, the same list otherwise (it is sorted
   * by name here, once per list, so the order never depends on discovery).
   */
  readonly members: () => readonly AdmissionMember[]
  /** The channels an inhibitor is confined to, read at every message; empty means all channels. */
  readonly confinedTo: (inhibitor: string) => readonly string[]
  /** Whether any inhibitor is confined at all: when none is, confinedTo is not asked per member. */
  readonly confinesAny?: () => boolean
  readonly logger: Logger
  /** How long one inspect() may take; an expiry counts as the inhibitor failing. */
  readonly deadlineMs?: number
}

/** inspect() calls one inhibitor may have running; past it a message is judged as if it had failed. */
const INSPECTIONS_IN_FLIGHT = 64

/**
 * The inhibitor chain. A refusal is final whether or not the inhibitor is enforcing; `enforcing`
 * only decides what a failure does: an advisory inhibitor that throws, or never became usable, is
 * skipped, while an enforcing one refuses all traffic rather than leave its channel open.
 */
export class AdmissionChain {
  readonly #members: () => readonly AdmissionMember[]
  readonly #confinedTo: (inhibitor: string) => readonly string[]
  readonly #confinesAny: () => boolean
  readonly #logger: Logger
  readonly #deadlineMs: number
  readonly #inspecting: InFlight
  #lastListed: readonly AdmissionMember[] | undefined
  #sorted: readonly AdmissionMember[] = []

  constructor(options: AdmissionOptions) {
    this.#members = options.members
    this.#confinedTo = options.confinedTo
    this.#confinesAny = options.confinesAny ?? (() => true)
    this.#logger = options.logger
    this.#deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINES.inspect
    this.#inspecting = new InFlight(INSPECTIONS_IN_FLIGHT, (inhibitor, limit) =>
      this.#logger.warn('an inhibitor has too many inspections still running; judging as failed', {
        inhibitor,
        limit,
      }),
    )
  }

  /**
   * Answers at once, without a turn of the event loop, while every inhibitor that judges the
   * message answers synchronously; the first promise of a verdict makes the rest wait for it.
   */
  admit(message: IncomingMessage): Admission | Promise<Admission> {
    return this.#judgeFrom(this.#ordered(), 0, message, this.#confinesAny())
  }

  /** The members in name order, sorted again only when the list itself is a new one. */
  #ordered(): readonly AdmissionMember[] {
    const current = this.#members()
    if (current !== this.#lastListed) {
      this.#lastListed = current
      this.#sorted = current.length > 1 ? [...current].sort(byName) : current
    }
    return this.#sorted
  }

  /** Whether a member has this message to judge: confinement first, then usability. */
  #judges(member: AdmissionMember, message: IncomingMessage, confinement: boolean): boolean {
    if (confinement) {
      const confined = this.#confinedTo(member.name)
      if (confined.length > 0 && !confined.includes(message.channel)) return false
    }
    return member.usable || member.enforcing
  }

  #judgeFrom(
    members: readonly AdmissionMember[],
    start: number,
    message: IncomingMessage,
    confinement = true,
  ): Admission | Promise<Admission> {
    for (let index = start; index < members.length; index++) {
      const member = members[index]!
      if (!this.#judges(member, message, confinement)) continue
      if (!member.usable) {
        return this.#refuse(
          member.name,
          `enforcing inhibitor is not usable (${member.reason}): all traffic refused`,
          message,
        )
      }
      let answer: Verdict | Promise<Verdict>
      try {
        answer = this.#inspect(member, message)
      } catch (error) {
        const failed = this.#failed(member, error, message)
        if (failed) return failed
        continue
      }
      if (isThenable(answer)) return this.#awaitVerdict({ answer, members, index, message })
      const refused = this.#weigh(member, answer, message)
      if (refused) return refused
    }
    return ADMITTED
  }

  async #awaitVerdict(pending: PendingVerdict): Promise<Admission> {
    const { members, index, message } = pending
    const member = members[index]!
    let verdict: unknown
    try {
      verdict = await pending.answer
    } catch (error) {
      const failed = this.#failed(member, error, message)
      return failed ?? this.#judgeFrom(members, index + 1, message)
    }
    return this.#weigh(member, verdict, message) ?? this.#judgeFrom(members, index + 1, message)
  }

  /** A verdict's refusal, or undefined to go on to the next member. */
  #weigh(member: AdmissionMember, answer: unknown, message: IncomingMessage): Admission | undefined {
    let verdict: Verdict
    try {
      verdict = checkedVerdict(answer)
    } catch (error) {
      return this.#failed(member, error, message)
    }
    return verdict.allow ? undefined : this.#refuse(member.name, verdict.reason, message)
  }

  /** What an inhibitor's failure does: an advisory one is skipped (undefined), an enforcing one refuses. */
  #failed(member: AdmissionMember, error: unknown, message: IncomingMessage): Admission | undefined {
    const detail = error instanceof Error ? error.message : String(error)
    if (error instanceof DeadlineExceeded) {
      this.#logger.warn('deadline passed', { spore: member.name, step: error.step, ms: error.ms })
    }
    if (!member.enforcing) {
      this.#logger.warn('advisory inhibitor failed; skipped', { inhibitor: member.name, error: detail })
      return undefined
    }
    return this.#refuse(member.name, `enforcing inhibitor failed (${detail}): all traffic refused`, message)
  }

  /**
   * One inspect(), bounded in time and in how many may be running. A verdict given at once costs
   * no timer and is not counted (inspect() cannot call back into admission); a pending one is both.
   */
  #inspect(member: UsableMember, message: IncomingMessage): Verdict | Promise<Verdict> {
    const { name, inhibitor, context } = member
    if (!this.#inspecting.hasRoom(name)) {
      throw new Error(`inspect() already has ${INSPECTIONS_IN_FLIGHT} calls running; not asked`)
    }
    const verdict = inhibitor.inspect(message, context)
    if (!isThenable(verdict)) return verdict
    this.#inspecting.holdUntil(name, verdict)
    return raceDeadline(verdict, { step: 'inspect()', ms: this.#deadlineMs })
  }

  #refuse(by: string, reason: string, message: IncomingMessage): Admission {
    // Silent on the channel; the operator reads why here.
    this.#logger.info('message refused at admission', {
      inhibitor: by,
      reason,
      channel: message.channel,
      sender: message.sender.externalId,
    })
    return { admitted: false, by, reason }
  }
}

/** Every allow is this one verdict: judging twenty inhibitors allocates nothing for them. */
const ALLOW: Verdict = Object.freeze({ allow: true })

/** Stands in for the reason an inhibitor owed but did not give: its refusal stands all the same. */
export const NO_REASON = 'refused without giving a reason'

/**
 * A refusal is always final: `allow: false` refuses whatever else the verdict lacks. Anything
 * that is neither an allow nor a refusal is the inhibitor's fault.
 */
function checkedVerdict(value: unknown): Verdict {
  if (typeof value === 'object' && value !== null && 'allow' in value) {
    if (value.allow === true) return ALLOW
    if (value.allow === false) {
      const reason = 'reason' in value && typeof value.reason === 'string' ? value.reason.trim() : ''
      return { allow: false, reason: reason === '' ? NO_REASON : reason }
    }
  }
  throw new Error(`inspect() returned ${describeValue(value)}, not a verdict`)
}

/** A returned value as a short text: never the whole of whatever a spore handed back. */
function describeValue(value: unknown): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = Object.prototype.toString.call(value)
  }
  return text.length > 80 ? `${text.slice(0, 80)}…` : text
}
