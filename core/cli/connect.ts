// `bun run mycelo connect <channel>`: the channel's connector asks the service, then the settings
// are stored and the spore enabled through the one connectChannel the other surfaces use too.
import { writeSync } from 'node:fs'
import { isatty } from 'node:tty'
import { connectChannel } from '../connect/connect.ts'
import { CONNECTORS } from '../connect/connector.ts'
import { ok, type Run, refusal, say } from './answer.ts'

/** The first line of standard input: a prompt first when a person is typing at a terminal. */
async function readSecret(prompt: string): Promise<string | undefined> {
  if (isatty(0)) writeSync(2, prompt)
  for await (const line of console) return line
  return undefined
}

export const CONNECT_RUNS: Readonly<Record<string, Run>> = {
  async connect(cli, [channel, ...args]) {
    const connector = CONNECTORS[channel!]
    const secret =
      connector?.asksSecret === true
        ? await readSecret(say(cli, 'cli.connectPrompt', { channel }))
        : undefined
    const done = await connectChannel(cli.runtime, cli.plugins, {
      channel: channel!,
      args,
      ...(secret === undefined ? {} : { secret }),
    })
    return done.ok ? ok(cli, 'cli.connected', { channel, who: done.value.who }) : refusal(cli, done.refusal)
  },
}
