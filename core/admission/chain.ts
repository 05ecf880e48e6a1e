import type { IncomingMessage, Inhibitor, InhibitorContext, Logger, Verdict } from '@mycelo/septum'

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

export type Admission =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly by: string; readonly reason: string }

const ADMITTED: Admission = { admitted: true }

const byName = (a: AdmissionMember, b: AdmissionMember) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)

export interface AdmissionOptions {
  /**
   * The inhibitors as they stand now, read at every message so that one failing to start is
   * refused from then on; sorted by name here, so the order never depends on discovery.
   */
  readonly members: () => readonly AdmissionMember[]
  /** The channels an inhibitor is confined to, read at every message; empty means all channels. */
  readonly confinedTo: (inhibitor: string) => readonly string[]
  readonly logger: Logger
}

/**
 * The inhibitor chain. A refusal is final whether or not the inhibitor is enforcing; `enforcing`
 * only decides what a failure does: an advisory inhibitor that throws, or never became usable, is
 * skipped, while an enforcing one refuses all traffic rather than leave its channel open.
 */
export class AdmissionChain {
  readonly #members: () => readonly AdmissionMember[]
  readonly #confinedTo: (inhibitor: string) => readonly string[]
  readonly #logger: Logger

  constructor(options: AdmissionOptions) {
    this.#members = options.members
    this.#confinedTo = options.confinedTo
    this.#logger = options.logger
  }

  /** Answers at once, without a turn of the event loop, when no inhibitor has this message to judge. */
  admit(message: IncomingMessage): Admission | Promise<Admission> {
    const all = this.#members()
    const members = all.length > 1 ? [...all].sort(byName) : all
    const judging: AdmissionMember[] = []
    for (const member of members) {
      const confined = this.#confinedTo(member.name)
      if (confined.length > 0 && !confined.includes(message.channel)) continue
      if (!member.usable && !member.enforcing) continue
      judging.push(member)
    }
    return judging.length === 0 ? ADMITTED : this.#judge(judging, message)
  }

  async #judge(members: readonly AdmissionMember[], message: IncomingMessage): Promise<Admission> {
    for (const member of members) {
      if (!member.usable) {
        return this.#refuse(
          member.name,
          `enforcing inhibitor is not usable (${member.reason}): all traffic refused`,
          message,
        )
      }
      let verdict: Verdict
      try {
        verdict = checkedVerdict(await member.inhibitor.inspect(message, member.context))
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error)
        if (!member.enforcing) {
          this.#logger.warn('advisory inhibitor failed; skipped', { inhibitor: member.name, error: detail })
          continue
        }
        return this.#refuse(
          member.name,
          `enforcing inhibitor failed (${detail}): all traffic refused`,
          message,
        )
      }
      if (!verdict.allow) return this.#refuse(member.name, verdict.reason, message)
    }
    return ADMITTED
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

/** A verdict that is neither an allow nor a refusal with a reason is the inhibitor's fault. */
function checkedVerdict(value: unknown): Verdict {
  if (typeof value === 'object' && value !== null && 'allow' in value) {
    if (value.allow === true) return { allow: true }
    if (
      value.allow === false &&
      'reason' in value &&
      typeof value.reason === 'string' &&
      value.reason.trim()
    ) {
      return { allow: false, reason: value.reason }
    }
    if (value.allow === false) throw new Error('refused without a reason; a refusal must say why')
  }
  throw new Error(`inspect() returned ${JSON.stringify(value)}, not a verdict`)
}
