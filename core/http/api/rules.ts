// Context rules, inhibitor confinement and broadcast targets, through restrictionOutcomes: the
// same checks chat's admin spore meets, the lockout rule among them.

import { z } from 'zod'
import { guardOf } from '../../mycelium/guards.ts'
import { restrictionOutcomes } from '../../mycelium/restrictions.ts'
import { answerOutcome } from './answer.ts'
import { type ApiDeps, type ApiRoute, route } from './route.ts'

const ruleBody = z.strictObject({ allowed: z.array(z.enum(['dm', 'group'])) })
const channelsBody = z.strictObject({ channels: z.array(z.string()) })
const targetBody = z.strictObject({ channel: z.string().min(1), conversationId: z.string() })

export function ruleRoutes({ runtime }: ApiDeps): ApiRoute[] {
  const restrictions = restrictionOutcomes(runtime)
  return [
    route({
      method: 'get',
      path: '/rules',
      summary: 'Every context rule: which kinds of conversation a command may be used in',
      guard: guardOf('restrictions.manage', 'listContextRules'),
      handle: async ({ c }) => c.json({ rules: await restrictions.listContextRules() }),
    }),
    route({
      method: 'put',
      path: '/rules/:command',
      summary: 'Set where a command (plugin.command) may be used',
      guard: guardOf('restrictions.manage', 'setContextRule'),
      body: ruleBody,
      handle: async ({ c, param, body }) =>
        answerOutcome(runtime, c, await restrictions.setContextRule(param('command'), body.allowed)),
    }),
    route({
      method: 'delete',
      path: '/rules/:command',
      summary: 'Clear a context rule',
      guard: guardOf('restrictions.manage', 'clearContextRule'),
      handle: async ({ c, param }) =>
        answerOutcome(runtime, c, await restrictions.clearContextRule(param('command'))),
    }),
    route({
      method: 'get',
      path: '/inhibitors/:name/channels',
      summary: 'The channels an inhibitor judges; none listed means every channel',
      guard: guardOf('restrictions.manage', 'inhibitorChannels'),
      handle: async ({ c, param }) =>
        answerOutcome(runtime, c, await restrictions.inhibitorChannels(param('name')), (channels) => ({
          channels,
        })),
    }),
    route({
      method: 'put',
      path: '/inhibitors/:name/channels',
      summary: 'Confine an inhibitor to these channels (empty: every channel), at once',
      guard: guardOf('restrictions.manage', 'confineInhibitor'),
      body: channelsBody,
      handle: async ({ c, param, body }) =>
        answerOutcome(runtime, c, await restrictions.confineInhibitor(param('name'), body.channels)),
    }),
    route({
      method: 'get',
      path: '/broadcast-targets',
      summary: 'The conversations a broadcast goes to',
      guard: guardOf('restrictions.manage', 'listBroadcastTargets'),
      handle: async ({ c }) => c.json({ targets: await restrictions.listBroadcastTargets() }),
    }),
    route({
      method: 'post',
      path: '/broadcast-targets',
      summary: 'Add a broadcast target',
      guard: guardOf('restrictions.manage', 'addBroadcastTarget'),
      body: targetBody,
      handle: async ({ c, body }) => answerOutcome(runtime, c, await restrictions.addBroadcastTarget(body)),
    }),
    route({
      method: 'delete',
      path: '/broadcast-targets/:channel/:conversationId',
      summary: 'Remove a broadcast target',
      guard: guardOf('restrictions.manage', 'removeBroadcastTarget'),
      handle: async ({ c, param }) =>
        answerOutcome(
          runtime,
          c,
          await restrictions.removeBroadcastTarget({
            channel: param('channel'),
            conversationId: param('conversationId'),
          }),
        ),
    }),
  ]
}
