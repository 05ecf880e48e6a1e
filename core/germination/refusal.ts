/** A fault in the set of spores as a whole (a requires cycle, a name clash): the bot refuses to start. */
export class StartupRefusal extends Error {
  override readonly name = 'StartupRefusal'
}
