import type { EnzymeContext, EnzymeStartContext, Handler, Invocation, ScheduledRun } from '@mycelo/septum'
import { type ReminderBook, zoneKey } from './book.ts'
import type { RemindersConfig } from './config.ts'
import { readRequest } from './request.ts'
import { knownTimeZone } from './when.ts'
import { clockText, repeatText, typedCommand, whenText } from './wording.ts'

type Context = EnzymeContext<RemindersConfig>

/** The reader's own zone, or undefined when they have not chosen one. */
const chosenZone = (ctx: Context) => ctx.storage.get<string>(zoneKey(ctx.principal.id))

export function commandHandlers(book: () => ReminderBook): Record<string, Handler<RemindersConfig>> {
  return {
    async remind(invocation: Invocation, ctx: Context) {
      const command = typedCommand(invocation.message.text, '/remind')
      const usage = ctx.t('usage.remind', { command })
      const request = (invocation.args.request ?? '').trim()
      if (request === '') return ctx.reply({ text: usage })
      const read = readRequest(request)
      if (!read.ok) return ctx.reply({ text: `${ctx.t(`problem.${read.problem}`)}\n${usage}` })
      const chosen = await chosenZone(ctx)
      const timeZone = chosen ?? ctx.config.timeZone
      const { message } = invocation
      const added = await book().add({
        principal: ctx.principal.id,
        request: read.value,
        target: { channel: message.channel, conversationId: message.conversationId },
        locale: ctx.locale,
        timeZone,
        now: new Date(),
      })
      if (!added.ok) return ctx.reply({ text: ctx.t(added.refusal) })
      const { reminder, nextAt } = added.value
      const repeating = reminder.repeating
      const said = repeating
        ? ctx.t('remind.repeating', {
            every: repeatText(repeating.repeat, ctx.locale, ctx.t),
            time: clockText(repeating.hour, repeating.minute, ctx.locale),
            zone: timeZone,
            text: reminder.text,
          })
        : ctx.t('remind.once', {
            when: whenText(nextAt!, ctx.locale, timeZone),
            zone: timeZone,
            text: reminder.text,
          })
      const hint = chosen === undefined ? `\n${ctx.t('remind.zoneHint', { zone: timeZone })}` : ''
      return ctx.reply({ text: said + hint })
    },

    async reminders(_invocation: Invocation, ctx: Context) {
      const listed = await book().list(ctx.principal.id)
      if (listed.length === 0) return ctx.reply({ text: ctx.t('list.none') })
      const lines = listed.map(({ reminder, nextAt }, index) => {
        const zone = reminder.timeZone
        const when = nextAt === undefined ? '?' : whenText(nextAt, ctx.locale, zone)
        const key = reminder.repeating ? 'list.repeating' : 'list.once'
        const every = reminder.repeating ? repeatText(reminder.repeating.repeat, ctx.locale, ctx.t) : ''
        return ctx.t(key, { n: index + 1, when, text: reminder.text, every })
      })
      return ctx.reply({ text: [ctx.t('list.header', { count: listed.length }), ...lines].join('\n') })
    },

    async forget(invocation: Invocation, ctx: Context) {
      const command = typedCommand(invocation.message.text, '/forget')
      const asked = (invocation.args.number ?? '').trim()
      if (!/^\d{1,4}$/.test(asked) || Number(asked) < 1)
        return ctx.reply({ text: ctx.t('usage.forget', { command }) })
      const forgotten = await book().forget(ctx.principal.id, Number(asked))
      return ctx.reply({
        text: forgotten.ok ? ctx.t('forget.done', { text: forgotten.value.text }) : ctx.t(forgotten.refusal),
      })
    },

    async timezone(invocation: Invocation, ctx: Context) {
      const asked = (invocation.args.zone ?? '').trim()
      if (asked === '') {
        const chosen = await chosenZone(ctx)
        return ctx.reply({
          text: chosen
            ? ctx.t('timezone.yours', { zone: chosen })
            : ctx.t('timezone.default', { zone: ctx.config.timeZone }),
        })
      }
      const zone = knownTimeZone(asked)
      if (zone === undefined) return ctx.reply({ text: ctx.t('timezone.unknown', { zone: asked }) })
      const moved = await book().rezone(ctx.principal.id, zone)
      const now = new Intl.DateTimeFormat(ctx.locale, { timeZone: zone, timeStyle: 'short' }).format(
        new Date(),
      )
      return ctx.reply({ text: ctx.t('timezone.set', { zone, now, moved }) })
    },
  }
}

/** Says a reminder that fell due, where it was asked, in the language it was asked in. */
export function dueHandler(ctx: () => EnzymeStartContext<RemindersConfig>, book: () => ReminderBook) {
  return async (run: ScheduledRun): Promise<void> => {
    const id = (run.data as { id?: unknown } | null)?.id
    if (typeof id !== 'string') return
    const reminder = await book().reminderOf(id)
    // Forgotten between its schedule firing and now.
    if (reminder === undefined) return
    const started = ctx()
    const key = run.missed ? 'fire.late' : 'fire.now'
    const when = whenText(new Date(run.dueAt), reminder.locale, reminder.timeZone)
    await started.push(reminder.target, {
      text: started.t(key, { text: reminder.text, when }, reminder.locale),
    })
    await book().done(reminder)
  }
}
