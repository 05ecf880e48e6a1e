/** A catalogue key of the tool's own translations (sporangia/translations) and what it names. */
export interface ToolRefusal {
  readonly key: string
  readonly params?: Readonly<Record<string, string | number>>
}

/** An author's mistake is an ordinary answer, not a fault: it is refused with a translatable reason. */
export type ToolOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly refusal: ToolRefusal }

export const done = <T>(value: T): ToolOutcome<T> => ({ ok: true, value })

export function refused(key: string, params?: Readonly<Record<string, string | number>>): ToolOutcome<never> {
  return { ok: false, refusal: { key, ...(params ? { params } : {}) } }
}
