import type { EnzymeModule, EnzymeStartContext } from '@mycelo/septum'
import { ReminderBook } from './book.ts'
import { configSchema, type RemindersConfig } from './config.ts'
import { commandHandlers, dueHandler } from './handlers.ts'

export type { RemindersConfig } from './config.ts'

export default {
  configSchema,
  create: () => {
    let started: EnzymeStartContext<RemindersConfig> | undefined
    let book: ReminderBook | undefined
    const live = () => {
      if (book === undefined || started === undefined) throw new Error('reminders has not started')
      return { book, started }
    }
    const onDue = dueHandler(
      () => live().started,
      () => live().book,
    )
    return {
      handlers: commandHandlers(() => live().book),
      async start(ctx: EnzymeStartContext<RemindersConfig>) {
        started = ctx
        book = new ReminderBook({
          storage: ctx.storage,
          schedule: ctx.schedule,
          onDue,
          maxPerPerson: ctx.config.maxPerPerson,
        })
        // Reminders asked before this start (or before a restart) fire through this handler.
        ctx.schedule.handle('reminder:', onDue)
      },
      async stop() {
        started = undefined
        book = undefined
      },
    }
  },
} satisfies EnzymeModule<RemindersConfig>
