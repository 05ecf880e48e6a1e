import type { ChannelIdentity } from '@mycelo/septum'
import { parseRestAddress } from '../config.ts'
import { CHANNEL } from '../envelope.ts'
import {
  type GroupListing,
  isRecord,
  type OutboundMessage,
  type OutboundReaction,
  type Recipient,
} from './transport.ts'

export interface RestOptions {
  /** The signal-cli-rest-api base URL. */
  readonly address: string
  readonly account: string
  readonly requestTimeoutMs: number
  readonly token?: string
  readonly username?: string
  readonly password?: string
}

/** The REST half of signal-cli-rest-api: send, react, list groups, and what /v1/about tells. */
export class RestApi {
  /** The base URL, without a trailing slash. */
  readonly base: string
  /** The account as a path segment. */
  readonly number: string
  readonly headers: Readonly<Record<string, string>>

  constructor(private readonly options: RestOptions) {
    const base = parseRestAddress(options.address)
    if (base === undefined) throw new Error(`"${options.address}" is not an http(s) URL`)
    this.base = base
    this.number = encodeURIComponent(options.account)
    this.headers = authorization(options)
  }

  async send(recipient: Recipient, message: OutboundMessage): Promise<void> {
    await this.#call('send', 'POST', '/v2/send', {
      message: message.text,
      number: this.options.account,
      recipients: [restRecipient(recipient)],
      ...(message.attachments.length === 0 ? {} : { base64_attachments: message.attachments }),
    })
  }

  async react(recipient: Recipient, reaction: OutboundReaction): Promise<void> {
    await this.#call('reactions', 'POST', `/v1/reactions/${this.number}`, {
      recipient: restRecipient(recipient),
      reaction: reaction.emoji,
      target_author: reaction.targetAuthor,
      timestamp: reaction.targetTimestamp,
    })
  }

  async listGroups(): Promise<readonly GroupListing[]> {
    const groups = await this.#call('groups', 'GET', `/v1/groups/${this.number}`)
    if (!Array.isArray(groups)) {
      throw new Error('signal-cli-rest-api answered groups with something other than a list')
    }
    return groups.filter(isRecord).flatMap((group) => {
      // internal_id is signal-cli's own group id, the one envelopes carry.
      if (typeof group.internal_id !== 'string') return []
      const name = typeof group.name === 'string' && group.name !== '' ? { name: group.name } : {}
      const members = Array.isArray(group.members) ? group.members.filter((m) => typeof m === 'string') : []
      const identities = members.map((m): ChannelIdentity => ({ channel: CHANNEL, externalId: m }))
      return [{ id: group.internal_id, ...name, members: identities }]
    })
  }

  /**
   * A websocket that will not open says nothing about why; /v1/about does, without side effects:
   * refused credentials, or a container not in json-rpc mode (its receive route is then plain HTTP).
   */
  async whyNoWebsocket(closed: string): Promise<string> {
    let about: Response
    try {
      about = await fetch(`${this.base}/v1/about`, {
        headers: this.headers,
        signal: AbortSignal.timeout(this.options.requestTimeoutMs),
      })
    } catch (error) {
      return `${closed}; ${error instanceof Error ? error.message : String(error)}`
    }
    if (about.status === 401 || about.status === 403) {
      return `the API refused the credentials (HTTP ${about.status}); check token, username and password`
    }
    const answer: unknown = about.ok ? await about.json().catch(() => undefined) : undefined
    if (isRecord(answer) && typeof answer.mode === 'string' && answer.mode !== 'json-rpc') {
      return `the container runs in ${answer.mode} mode; start it with MODE=json-rpc to receive messages`
    }
    return closed
  }

  async #call(what: string, method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: { ...this.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(this.options.requestTimeoutMs),
    })
    const text = await response.text()
    let answer: unknown
    try {
      answer = text === '' ? undefined : JSON.parse(text)
    } catch {
      answer = text
    }
    if (!response.ok) {
      const reason =
        isRecord(answer) && typeof answer.error === 'string' ? answer.error : text || response.statusText
      throw new RestRefusal(
        `signal-cli-rest-api refused ${what}: ${reason} (HTTP ${response.status})`,
        response.status,
      )
    }
    return answer
  }
}

/** The REST API answered with an error status: a 5xx is the API's trouble, a 4xx a refusal. */
export class RestRefusal extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
    this.name = 'RestRefusal'
  }
}

function authorization(options: RestOptions): Record<string, string> {
  if (options.token !== undefined) return { authorization: `Bearer ${options.token}` }
  if (options.username !== undefined && options.password !== undefined) {
    return { authorization: `Basic ${btoa(`${options.username}:${options.password}`)}` }
  }
  return {}
}

/** The REST API names a group `group.` + base64 of signal-cli's own group id. */
function restRecipient(recipient: Recipient): string {
  return recipient.kind === 'group'
    ? `group.${Buffer.from(recipient.groupId).toString('base64')}`
    : recipient.id
}
