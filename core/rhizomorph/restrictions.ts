import type { ContextRule, ConversationKind, PushTarget } from '@mycelo/septum'
import { and, eq } from 'drizzle-orm'
import type { Store } from '../store/index.ts'
import { broadcastTargets, commandContextRules, inhibitorChannels } from '../store/schema/index.ts'

/** An inhibitor confined to no channel judges every channel: one shared answer, read per message. */
const EVERY_CHANNEL: readonly string[] = Object.freeze([])

/**
 * Context rules, inhibitor confinement and broadcast targets, mirrored in memory and written
 * through, so the message path reads them for free and a change applies to the very next message.
 */
export class RestrictionBook {
  readonly #store: Store
  readonly #rules = new Map<string, readonly ConversationKind[]>()
  readonly #confinement = new Map<string, readonly string[]>()
  #targets: PushTarget[] = []

  constructor(store: Store) {
    this.#store = store
    this.reload()
  }

  reload(): void {
    const { db } = this.#store
    this.#rules.clear()
    for (const row of db.select().from(commandContextRules).all()) {
      this.#rules.set(row.command, JSON.parse(row.allowedKinds) as ConversationKind[])
    }
    this.#confinement.clear()
    for (const row of db.select().from(inhibitorChannels).all()) {
      this.#confinement.set(row.inhibitor, [...(this.#confinement.get(row.inhibitor) ?? []), row.channel])
    }
    this.#targets = db.select().from(broadcastTargets).all()
  }

  /** The kinds of conversation a qualified command is allowed in; undefined means anywhere. */
  allowedKinds(qualified: string): readonly ConversationKind[] | undefined {
    return this.#rules.get(qualified)
  }

  contextRules(): ContextRule[] {
    return [...this.#rules]
      .map(([command, allowed]) => ({ pattern: command, where: allowed, command, allowed }))
      .sort((a, b) => a.command.localeCompare(b.command))
  }

  setContextRule(qualified: string, allowed: readonly ConversationKind[]): void {
    const allowedKinds = JSON.stringify([...new Set(allowed)].sort())
    this.#store.db
      .insert(commandContextRules)
      .values({ command: qualified, allowedKinds })
      .onConflictDoUpdate({ target: commandContextRules.command, set: { allowedKinds } })
      .run()
    this.#rules.set(qualified, JSON.parse(allowedKinds))
  }

  clearContextRule(qualified: string): boolean {
    const removed = this.#store.db
      .delete(commandContextRules)
      .where(eq(commandContextRules.command, qualified))
      .returning({ command: commandContextRules.command })
      .all()
    this.#rules.delete(qualified)
    return removed.length > 0
  }

  /** The channels an inhibitor judges; empty means every channel. */
  /** Whether any inhibitor is confined to some channels: most bots confine none. */
  confinesAny(): boolean {
    return this.#confinement.size > 0
  }

  confinedTo(inhibitor: string): readonly string[] {
    return this.#confinement.get(inhibitor) ?? EVERY_CHANNEL
  }

  confine(inhibitor: string, channels: readonly string[]): void {
    const unique = [...new Set(channels)].sort()
    this.#store.db.transaction((tx) => {
      tx.delete(inhibitorChannels).where(eq(inhibitorChannels.inhibitor, inhibitor)).run()
      if (unique.length > 0) {
        tx.insert(inhibitorChannels)
          .values(unique.map((channel) => ({ inhibitor, channel })))
          .run()
      }
    })
    if (unique.length > 0) this.#confinement.set(inhibitor, unique)
    else this.#confinement.delete(inhibitor)
  }

  targets(): readonly PushTarget[] {
    return this.#targets
  }

  addTarget(target: PushTarget): boolean {
    const added = this.#store.db
      .insert(broadcastTargets)
      .values({ channel: target.channel, conversationId: target.conversationId })
      .onConflictDoNothing()
      .returning({ channel: broadcastTargets.channel })
      .all()
    if (added.length > 0)
      this.#targets = [...this.#targets, { channel: target.channel, conversationId: target.conversationId }]
    return added.length > 0
  }

  removeTarget(target: PushTarget): boolean {
    const removed = this.#store.db
      .delete(broadcastTargets)
      .where(
        and(
          eq(broadcastTargets.channel, target.channel),
          eq(broadcastTargets.conversationId, target.conversationId),
        ),
      )
      .returning({ channel: broadcastTargets.channel })
      .all()
    this.#targets = this.#targets.filter(
      (t) => t.channel !== target.channel || t.conversationId !== target.conversationId,
    )
    return removed.length > 0
  }
}
