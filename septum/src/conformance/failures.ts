/** A failure list that every check appends to; a check never rejects, it reports. */
export class Failures {
  readonly #lines: string[] = []

  add(line: string): void {
    this.#lines.push(line)
  }

  get list(): readonly string[] {
    return this.#lines
  }

  /**
   * Runs one step; a throw or rejection becomes a failure line built from the error, and the
   * caller learns whether to go on with the steps that depend on it.
   */
  async attempt<T>(
    step: () => T | Promise<T>,
    describe: (error: string, cause: unknown) => string,
  ): Promise<{ ok: true; value: T } | { ok: false }> {
    try {
      return { ok: true, value: await step() }
    } catch (error) {
      this.add(describe(errorText(error), error))
      return { ok: false }
    }
  }
}

/** `TypeError: ctx.reply is not a function`, short enough to sit inside one failure line. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return text.trim().replace(/\s*\n\s*/g, '; ')
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}
