/** This process's part of every delivery id: random, so two runs never hand out the same one. */
const RUN_PREFIX = Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) =>
  (byte % 36).toString(36),
).join('')
/**
 * The count below 2^31 stays a small integer (a double's base-36 text is many times slower), from
 * 36^5 so it is always six digits; past 2^31 the two digits before it go up by one.
 */
const LOW_FIRST = 36 ** 5
const LOW_END = 2 ** 31 - 1
let high = `${RUN_PREFIX}00`
let low = LOW_FIRST
let rounds = 0

/** 16 letters and digits, unique across runs: the run's random part, then a count (no draw per message). */
export function newDeliveryId(): string {
  low += 1
  if (low === LOW_END) {
    rounds += 1
    high = RUN_PREFIX + rounds.toString(36).padStart(2, '0')
    low = LOW_FIRST + 1
  }
  return high + low.toString(36)
}
