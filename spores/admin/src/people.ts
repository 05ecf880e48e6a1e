import type { ChannelIdentity, PrincipalInfo } from '@mycelo/septum'
import { answer, arg, listing, principalOf, say, usage, yesNo } from './answers.ts'
import { type AdminContext, type Handlers, myceliumOf } from './mycelium.ts'

const identity = (id: ChannelIdentity) => `${id.channel}:${id.externalId}`

function personLine(person: PrincipalInfo, ctx: AdminContext): string {
  return ctx.t('people.line', {
    id: person.id,
    name: person.displayName ?? '',
    named: yesNo(person.displayName !== undefined && person.displayName !== ''),
    roles: person.roles.join(', '),
    roleCount: person.roles.length,
    identities: person.identities.map(identity).join(', '),
    reviewed: yesNo(person.reviewed),
  })
}

/** The reader themselves, the people the bot knows, and the two edits principals.manage allows. */
export const peopleHandlers: Handlers = {
  async whoami(_invocation, ctx) {
    const { principal } = ctx
    const lines = [
      ctx.t('whoami.id', { id: principal.id }),
      ctx.t('whoami.name', {
        name: principal.displayName ?? '',
        named: yesNo(principal.displayName !== undefined && principal.displayName !== ''),
      }),
      ctx.t('whoami.roles', { roles: principal.roles.join(', '), count: principal.roles.length }),
      ctx.t('whoami.identities', {
        identities: principal.identities.map(identity).join(', '),
        count: principal.identities.length,
      }),
      ctx.t('whoami.locale', { locale: ctx.locale }),
    ]
    await say(ctx, lines.join('\n'))
  },

  async people(_invocation, ctx) {
    const people = await myceliumOf(ctx).listPrincipals()
    const lines = people.map((person) => personLine(person, ctx))
    await say(ctx, listing(ctx.t('people.title', { count: people.length }), lines, ctx.t('people.empty')))
  },

  async review(invocation, ctx) {
    const word = arg(invocation, 'principal')
    if (word === undefined) return usage(invocation, ctx)
    const id = principalOf(word, ctx)
    const outcome = await myceliumOf(ctx).markReviewed(id)
    await answer(ctx, outcome, () => ctx.t('review.done', { principal: id }))
  },

  async rename(invocation, ctx) {
    const word = arg(invocation, 'principal')
    const name = arg(invocation, 'name')
    if (word === undefined || name === undefined) return usage(invocation, ctx)
    const id = principalOf(word, ctx)
    const outcome = await myceliumOf(ctx).setDisplayName(id, name)
    await answer(ctx, outcome, () => ctx.t('rename.done', { principal: id, name }))
  },
}
