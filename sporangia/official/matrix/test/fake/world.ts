import type { IRoomEvent, IStateEvent, IStrippedState } from 'matrix-js-sdk'

export const SERVER = 'fake.local'
export const BOT = `@bot:${SERVER}`

export interface Person {
  readonly userId: string
  readonly displayName: string
}

interface Room {
  readonly roomId: string
  /** Current state, by `type state_key`. */
  readonly state: Map<string, IStateEvent>
}

/** One event as the homeserver keeps it: its place in the stream, and its room. */
export interface Streamed {
  readonly position: number
  readonly roomId: string
  readonly event: IRoomEvent | IStateEvent
}

/**
 * The rooms, people and events of a fake homeserver: a group room the bot is in with Alice and Bob,
 * a direct chat with Alice, and one stream of events in the order the homeserver received them.
 * Every event is typed with matrix-js-sdk's own shapes of the client-server API.
 */
export class World {
  readonly alice: Person = { userId: `@alice:${SERVER}`, displayName: 'Alice' }
  readonly bob: Person = { userId: `@bob:${SERVER}`, displayName: 'Bob' }
  readonly carol: Person = { userId: `@carol:${SERVER}`, displayName: 'Carol' }
  readonly groupRoom = `!family:${SERVER}`
  readonly directRoom = `!alice-dm:${SERVER}`
  readonly rooms = new Map<string, Room>()
  readonly stream: Streamed[] = []
  /** Invitations of the bot not yet answered: room → the stripped state it was shown, and when. */
  readonly invites = new Map<string, { readonly position: number; readonly state: IStrippedState[] }>()
  readonly media = new Map<string, { readonly bytes: Uint8Array; readonly type: string }>()
  #position = 0
  #ids = 0

  constructor() {
    this.createRoom(this.groupRoom, { name: 'Family', members: [this.alice, this.bob] })
    this.createRoom(this.directRoom, { members: [this.alice], direct: true })
  }

  get position(): number {
    return this.#position
  }

  eventId(): string {
    this.#ids += 1
    return `$event${this.#ids}_${SERVER}`
  }

  createRoom(
    roomId: string,
    options: { name?: string; members: readonly Person[]; direct?: boolean; bot?: boolean },
  ): void {
    this.rooms.set(roomId, { roomId, state: new Map() })
    const creator = options.members[0] ?? this.alice
    this.append(
      roomId,
      this.stateEvent({
        sender: creator.userId,
        type: 'm.room.create',
        stateKey: '',
        content: { creator: creator.userId },
      }),
    )
    if (options.name !== undefined)
      this.append(
        roomId,
        this.stateEvent({
          sender: creator.userId,
          type: 'm.room.name',
          stateKey: '',
          content: { name: options.name },
        }),
      )
    for (const person of options.members) this.member(roomId, person, 'join')
    if (options.bot !== false)
      this.append(
        roomId,
        this.stateEvent({
          sender: BOT,
          type: 'm.room.member',
          stateKey: BOT,
          content: {
            membership: 'join',
            displayname: 'Mycelo',
            ...(options.direct ? { is_direct: true } : {}),
          },
        }),
      )
  }

  member(
    roomId: string,
    person: Person,
    membership: 'join' | 'leave' | 'invite',
    sender = person.userId,
  ): void {
    this.append(
      roomId,
      this.stateEvent({
        sender,
        type: 'm.room.member',
        stateKey: person.userId,
        content: { membership, displayname: person.displayName },
      }),
    )
  }

  stateEvent(options: {
    sender: string
    type: string
    stateKey: string
    content: Record<string, unknown>
  }): IStateEvent {
    return {
      event_id: this.eventId(),
      sender: options.sender,
      type: options.type,
      state_key: options.stateKey,
      content: options.content,
      origin_server_ts: Date.now(),
    }
  }

  messageEvent(sender: string, content: Record<string, unknown>, type = 'm.room.message'): IRoomEvent {
    return { event_id: this.eventId(), sender, type, content, origin_server_ts: Date.now() }
  }

  /** Adds an event to a room's timeline (and its state, for a state event); answers it as streamed. */
  append(roomId: string, event: IRoomEvent | IStateEvent): Streamed {
    const room = this.rooms.get(roomId)
    if (room === undefined) throw new Error(`no room ${roomId}`)
    if ('state_key' in event) room.state.set(`${event.type} ${event.state_key}`, event)
    this.#position += 1
    const streamed = { position: this.#position, roomId, event }
    this.stream.push(streamed)
    return streamed
  }

  /** The bot is invited: the invitation shows the room's stripped state, and the inviter's member event. */
  invite(
    roomId: string,
    from: Person,
    options: { direct?: boolean; encrypted?: boolean; name?: string } = {},
  ): void {
    this.createRoom(roomId, {
      members: [from],
      bot: false,
      ...(options.name === undefined ? {} : { name: options.name }),
    })
    if (options.encrypted) {
      this.append(
        roomId,
        this.stateEvent({
          sender: from.userId,
          type: 'm.room.encryption',
          stateKey: '',
          content: { algorithm: 'm.megolm.v1.aes-sha2' },
        }),
      )
    }
    this.append(
      roomId,
      this.stateEvent({
        sender: from.userId,
        type: 'm.room.member',
        stateKey: BOT,
        content: { membership: 'invite', ...(options.direct ? { is_direct: true } : {}) },
      }),
    )
    const room = this.rooms.get(roomId)
    const state: IStrippedState[] = [...(room?.state.values() ?? [])].map((event) => ({
      type: event.type,
      state_key: event.state_key,
      sender: event.sender,
      content: event.content,
    }))
    this.#position += 1
    this.invites.set(roomId, { position: this.#position, state })
  }

  membership(roomId: string, userId: string): string | undefined {
    return this.rooms.get(roomId)?.state.get(`m.room.member ${userId}`)?.content.membership as
      | string
      | undefined
  }

  joinedMembers(roomId: string): IStateEvent[] {
    return [...(this.rooms.get(roomId)?.state.values() ?? [])].filter(
      (event) => event.type === 'm.room.member' && event.content.membership === 'join',
    )
  }
}
