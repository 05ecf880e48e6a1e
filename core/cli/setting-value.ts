/**
 * A setting typed at the command line, read as chat reads it: JSON when it parses (numbers,
 * booleans, lists), the text as typed otherwise. Kept alone so it can follow chat's reading.
 */
export function readSettingValue(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
