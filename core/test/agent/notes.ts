// A small module for the runtime's tests: reads, a write, a confirm write, and a record of calls.
import { z } from 'zod'
import {
  type AgentModule,
  defineModule,
  type ExecuteResult,
  type InvocationContext,
} from '../../agent/index.ts'

export interface NotesModule {
  readonly module: AgentModule
  readonly notes: string[]
  /** Every registered-operation call's context, in call order. */
  readonly contexts: InvocationContext[]
}

export function notesModule(id = 'notes'): NotesModule {
  const notes: string[] = []
  const contexts: InvocationContext[] = []
  const module = defineModule({
    id,
    operations: {
      list: {
        description: 'Every note',
        access: 'read',
        input: z.object({}),
        output: z.array(z.string()),
        run: (_input, context) => {
          contexts.push(context)
          return [...notes]
        },
      },
      add: {
        description: 'Adds a note',
        input: z.object({ text: z.string().min(1) }),
        output: z.object({ count: z.number() }),
        run: ({ text }, context) => {
          contexts.push(context)
          notes.push(text)
          return { count: notes.length }
        },
      },
      clear: {
        description: 'Removes every note',
        access: 'write',
        confirm: true,
        input: z.object({}),
        output: z.object({ removed: z.number() }),
        run: (_input, context) => {
          contexts.push(context)
          const removed = notes.length
          notes.length = 0
          return { removed }
        },
      },
    },
  })
  return { module, notes, contexts }
}

/** A promise and the hand that settles it, to hold an operation mid-flight. */
export function gate<T = void>(): { promise: Promise<T>; open(value: T): void } {
  let open!: (value: T) => void
  const promise = new Promise<T>((resolve) => {
    open = resolve
  })
  return { promise, open }
}

export type Failed = Extract<ExecuteResult, { ok: false }>

/** The failure of an execute that had to fail; the test fails with its value otherwise. */
export function failed(result: ExecuteResult): Failed {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`)
  return result
}

/** A module whose one operation throws on the host side, with text the model must never see. */
export function brokenModule(secret = 'the disk is on fire'): AgentModule {
  return defineModule({
    id: 'broken',
    operations: {
      explode: {
        access: 'read',
        input: z.object({}),
        output: z.null(),
        run: () => {
          throw new Error(secret)
        },
      },
    },
  })
}
