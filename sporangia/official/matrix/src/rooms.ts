import type { SporeStorage } from '@mycelo/septum'
import type { IStateEvent, IStrippedState } from 'matrix-js-sdk'

/** What the hypha knows of a joined room from its state, kept across restarts. */
export interface RoomFacts {
  readonly name?: string
  readonly encrypted?: boolean
  /** A direct chat: the bot was invited with is_direct. */
  readonly direct?: boolean
}

const key = (roomId: string) => `rooms/${roomId}`

/**
 * The joined rooms' names, encryption and directness, and members' display names, learnt from
 * /sync's state and timeline. Rooms are kept in the spore's storage, since a sync resumed from its
 * token does not send a room's state again; display names are only a label, so memory will do.
 */
export class Rooms {
  readonly #rooms = new Map<string, RoomFacts>()
  readonly #names = new Map<string, string>()

  constructor(private readonly storage: SporeStorage) {}

  async load(): Promise<void> {
    for (const entry of await this.storage.list<RoomFacts>('rooms/')) {
      this.#rooms.set(entry.key.slice('rooms/'.length), entry.value)
    }
  }

  facts(roomId: string): RoomFacts {
    return this.#rooms.get(roomId) ?? {}
  }

  displayName(roomId: string, userId: string): string {
    return this.#names.get(`${roomId} ${userId}`) ?? userId
  }

  /** Learns which rooms are direct chats from the account's m.direct data (person → their rooms). */
  async learnDirect(direct: Readonly<Record<string, unknown>>): Promise<void> {
    for (const rooms of Object.values(direct)) {
      if (!Array.isArray(rooms)) continue
      for (const roomId of rooms) {
        if (typeof roomId === 'string' && this.facts(roomId).direct !== true)
          await this.set(roomId, { ...this.facts(roomId), direct: true })
      }
    }
  }

  /** Learns from state events (a room's state block, or state in its timeline). */
  async learn(
    roomId: string,
    events: readonly (IStateEvent | IStrippedState)[],
    selfId?: string,
  ): Promise<void> {
    let facts = this.facts(roomId)
    const before = facts
    for (const event of events) {
      if (event.type === 'm.room.name' && typeof event.content.name === 'string')
        facts = { ...facts, name: event.content.name }
      else if (event.type === 'm.room.encryption') facts = { ...facts, encrypted: true }
      else if (event.type === 'm.room.member') {
        if (typeof event.content.displayname === 'string')
          this.#names.set(`${roomId} ${event.state_key}`, event.content.displayname)
        // The bot's own membership says is_direct when it was invited to a direct chat.
        if (event.state_key === selfId && event.content.is_direct === true) facts = { ...facts, direct: true }
      }
    }
    if (facts !== before) await this.set(roomId, facts)
  }

  async set(roomId: string, facts: RoomFacts): Promise<void> {
    this.#rooms.set(roomId, facts)
    await this.storage.set(key(roomId), facts)
  }

  async forget(roomId: string): Promise<void> {
    this.#rooms.delete(roomId)
    await this.storage.delete(key(roomId))
  }
}
