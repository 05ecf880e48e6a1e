// Seed 000 (the Mycelium agent runtime), sentence by sentence: each that applies to this Bun host
// names the test that checks it (its title quotes the sentence, or the words of it the test holds),
// and each that does not says why. seed-000.test.ts checks every test named here exists.

export interface SeedTest {
  /** From the repository's root. */
  readonly file: string
  readonly title: string
  /** Words of the statement the title quotes between “ and ”. */
  readonly quote: string
}

export type SeedStatement =
  | { readonly section: string; readonly statement: string; readonly tests: readonly SeedTest[] }
  | { readonly section: string; readonly statement: string; readonly notApplicable: string }

export const SEED_000: readonly SeedStatement[] = [
  {
    section: 'Concepts',
    statement: 'Mycelium gives an Agent typed operations through one execute tool.',
    tests: [
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'offers one execute tool that says how to discover operations (“Mycelium gives an Agent typed operations through one execute tool”; “one top-level execute tool”; “descriptions declare the same nested, callable env”; “Guests still submit only code”)',
        quote: 'Mycelium gives an Agent typed operations through one execute tool',
      },
    ],
  },
  {
    section: 'Concepts',
    statement:
      'It validates operations, acquires a coherent capability snapshot and releases it when the run ends.',
    tests: [
      {
        file: 'core/test/agent/leases.test.ts',
        title:
          'runs each execute on a lease it releases, and reports a failing source as a failed capability (“acquires a coherent capability snapshot and releases it when the run ends”; “Mycelium owns the scoped resources it acquires”)',
        quote: 'acquires a coherent capability snapshot and releases it when the run ends',
      },
    ],
  },
  {
    section: 'Concepts',
    statement: 'You can also execute a known operation without a model.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'lets a direct call bring its own context, and refuses a write without identity when the host requires it (“You can also execute a known operation without a model”; “Direct invokeModuleOperation callers supply their own context”; “refuse a write with missing identity rather than invent a fallback”)',
        quote: 'You can also execute a known operation without a model',
      },
    ],
  },
  {
    section: 'Operations and discovery',
    statement:
      'Declare input and output with an Effect schema or any Standard Schema that also implements Standard JSON Schema, such as Zod 4.',
    tests: [
      {
        file: 'core/test/agent/effect-schema.test.ts',
        title:
          'sits beside a Standard Schema operation in one module (“an Effect schema or any Standard Schema”)',
        quote: 'an Effect schema or any Standard Schema',
      },
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'refuses an operation without a Standard JSON Schema input or output, or without run (“any Standard Schema that also implements Standard JSON Schema”)',
        quote: 'any Standard Schema that also implements Standard JSON Schema',
      },
    ],
  },
  {
    section: 'Operations and discovery',
    statement: 'Mycelium decodes input with the schema before the operation runs.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'decodes input before the operation runs and validates its output (“Mycelium decodes input with the schema before the operation runs”; “a Standard output schema validates it”)',
        quote: 'Mycelium decodes input with the schema before the operation runs',
      },
    ],
  },
  {
    section: 'Operations and discovery',
    statement:
      'An Effect output schema encodes the result (so a codec such as Schema.NumberFromString returns "1"); a Standard output schema validates it.',
    tests: [
      {
        file: 'core/test/agent/effect-schema.test.ts',
        title: 'decodes input and encodes output (“an Effect output schema encodes the result”)',
        quote: 'an Effect output schema encodes the result',
      },
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'decodes input before the operation runs and validates its output (“Mycelium decodes input with the schema before the operation runs”; “a Standard output schema validates it”)',
        quote: 'a Standard output schema validates it',
      },
    ],
  },
  {
    section: 'Operations and discovery',
    statement:
      'An Effect schema is exchanged as its canonical JSON codec (Schema.toCodecJson), so the description, the decoder and the encoder agree.',
    tests: [
      {
        file: 'core/test/agent/effect-schema.test.ts',
        title:
          'describes the JSON codec it is exchanged as (“exchanged as its canonical JSON codec (Schema.toCodecJson)”)',
        quote: 'exchanged as its canonical JSON codec (Schema.toCodecJson)',
      },
    ],
  },
  {
    section: 'Operations and discovery',
    statement:
      'A throwing filter or transformation is a host error, never reported to the model as invalid input.',
    tests: [
      {
        file: 'core/test/agent/effect-schema.test.ts',
        title:
          'makes a throwing transformation a host error, never invalid input (“A throwing filter or transformation is a host error”)',
        quote: 'A throwing filter or transformation is a host error',
      },
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'treats a throwing refinement as a host error, never invalid input (“never reported to the model as invalid input”)',
        quote: 'never reported to the model as invalid input',
      },
    ],
  },
  {
    section: 'Operations and discovery',
    statement: 'Stable module IDs identify authority.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'exposes a child under the enclosing module, which stays the authority (“Stable module IDs identify authority”; “Compose modules in operations to expose any namespace depth”; “The enclosing module ID remains the authority identity”; “env.apps.bazaar.windows.open(...)”)',
        quote: 'Stable module IDs identify authority',
      },
    ],
  },
  {
    section: 'Operations and discovery',
    statement: 'Names become model-facing aliases.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'allocates names within their logical namespace (“Names are allocated within their logical namespace”) (“Names become model-facing aliases”)',
        quote: 'Names become model-facing aliases',
      },
    ],
  },
  {
    section: 'Operations and discovery',
    statement: 'Input ordering does not choose either identity.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title: 'gives the same aliases in any input order (“Input ordering does not choose either identity”)',
        quote: 'Input ordering does not choose either identity',
      },
    ],
  },
  {
    section: 'Operations and discovery',
    statement: 'Forage prepares the bounded discovery catalog for the captured graph.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'searches and describes the bounded catalogue under complete logical paths (“Forage prepares the bounded discovery catalog for the captured graph”; “Every leaf keeps its declared input/output types”)',
        quote: 'Forage prepares the bounded discovery catalog for the captured graph',
      },
    ],
  },
  {
    section: 'Operations and discovery',
    statement: 'Mule receives this runtime’s one top-level execute tool.',
    tests: [
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'offers one execute tool that says how to discover operations (“Mycelium gives an Agent typed operations through one execute tool”; “one top-level execute tool”; “descriptions declare the same nested, callable env”; “Guests still submit only code”)',
        quote: 'one top-level execute tool',
      },
    ],
  },
  {
    section: 'Operations and discovery',
    statement: 'Inner operations, including forage.search and forage.describe, stay behind that tool.',
    tests: [
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'lets the agent discover operations as the tool describes (“Inner operations, including forage.search and forage.describe, stay behind that tool”)',
        quote: 'Inner operations, including forage.search and forage.describe, stay behind that tool',
      },
    ],
  },
  {
    section: 'Operations and discovery',
    statement: 'The operation callback receives only its declared input and execution context.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'hands the callback only its declared input and the execution context (“The operation callback receives only its declared input and execution context”)',
        quote: 'The operation callback receives only its declared input and execution context',
      },
    ],
  },
  {
    section: 'Operations and discovery',
    statement: 'Access checks and authorization gates run before the operation.',
    tests: [
      {
        file: 'core/test/agent/access.test.ts',
        title:
          'checks the grant before asking, and asks before decoding the input (“Access checks and authorization gates run before the operation”; “Mycelium checks the grant first, then the person, before the operation’s input decoder runs”)',
        quote: 'Access checks and authorization gates run before the operation',
      },
    ],
  },
  {
    section: 'Operations and discovery',
    statement:
      'Product membership, resource ownership and final external access checks remain host responsibilities.',
    tests: [
      {
        file: 'core/test/agent/bot.test.ts',
        title:
          'holds the role ceiling for the person the agent acts for (“final external access checks remain host responsibilities”)',
        quote: 'final external access checks remain host responsibilities',
      },
    ],
  },
  {
    section: 'Operations and discovery',
    statement:
      'Each execute call runs in a fresh sandbox, not a REPL: no variable, function or global survives between calls.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'keeps no variable, function or global between calls (“Each execute call runs in a fresh sandbox, not a REPL”)',
        quote: 'Each execute call runs in a fresh sandbox, not a REPL',
      },
    ],
  },
  {
    section: 'Operations and discovery',
    statement: 'Redefine helpers in every call, or persist state to a file and read it back.',
    notApplicable:
      'not applicable: advice to the program’s author; this host’s sandbox has no file system to persist to, as “offers no network, no filesystem, no module loader and no raw host hooks” tests',
  },
  {
    section: 'Operation identity within execute',
    statement:
      'Every registered-operation call receives a frozen InvocationContext with a zero-based operationOrdinal.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'gives every registered call a frozen context, ordinals allocated at call time, forage taking none (“a frozen InvocationContext with a zero-based operationOrdinal”; “One counter spans all registered methods and modules in an execute”; “sequential calls and concurrently started calls have distinct positions”; “discovery helpers do not consume registered-operation positions”; “The counter resets for each execute attempt”; “gives the same ordinals even though executionId is fresh”; “toolCallId and operationOrdinal”)',
        quote: 'a frozen InvocationContext with a zero-based operationOrdinal',
      },
    ],
  },
  {
    section: 'Operation identity within execute',
    statement: 'One counter spans all registered methods and modules in an execute.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'gives every registered call a frozen context, ordinals allocated at call time, forage taking none (“a frozen InvocationContext with a zero-based operationOrdinal”; “One counter spans all registered methods and modules in an execute”; “sequential calls and concurrently started calls have distinct positions”; “discovery helpers do not consume registered-operation positions”; “The counter resets for each execute attempt”; “gives the same ordinals even though executionId is fresh”; “toolCallId and operationOrdinal”)',
        quote: 'One counter spans all registered methods and modules in an execute',
      },
    ],
  },
  {
    section: 'Operation identity within execute',
    statement:
      'Allocation happens synchronously when the binding is called, before asynchronous admission or operation work, so sequential calls and concurrently started calls have distinct positions.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'gives every registered call a frozen context, ordinals allocated at call time, forage taking none (“a frozen InvocationContext with a zero-based operationOrdinal”; “One counter spans all registered methods and modules in an execute”; “sequential calls and concurrently started calls have distinct positions”; “discovery helpers do not consume registered-operation positions”; “The counter resets for each execute attempt”; “gives the same ordinals even though executionId is fresh”; “toolCallId and operationOrdinal”)',
        quote: 'sequential calls and concurrently started calls have distinct positions',
      },
    ],
  },
  {
    section: 'Operation identity within execute',
    statement: 'Forage’s built-in discovery helpers do not consume registered-operation positions.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'gives every registered call a frozen context, ordinals allocated at call time, forage taking none (“a frozen InvocationContext with a zero-based operationOrdinal”; “One counter spans all registered methods and modules in an execute”; “sequential calls and concurrently started calls have distinct positions”; “discovery helpers do not consume registered-operation positions”; “The counter resets for each execute attempt”; “gives the same ordinals even though executionId is fresh”; “toolCallId and operationOrdinal”)',
        quote: 'discovery helpers do not consume registered-operation positions',
      },
    ],
  },
  {
    section: 'Operation identity within execute',
    statement: 'The counter resets for each execute attempt.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'gives every registered call a frozen context, ordinals allocated at call time, forage taking none (“a frozen InvocationContext with a zero-based operationOrdinal”; “One counter spans all registered methods and modules in an execute”; “sequential calls and concurrently started calls have distinct positions”; “discovery helpers do not consume registered-operation positions”; “The counter resets for each execute attempt”; “gives the same ordinals even though executionId is fresh”; “toolCallId and operationOrdinal”)',
        quote: 'The counter resets for each execute attempt',
      },
    ],
  },
  {
    section: 'Operation identity within execute',
    statement:
      'Replaying the same bound-call sequence gives the same ordinals even though executionId is fresh.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'gives every registered call a frozen context, ordinals allocated at call time, forage taking none (“a frozen InvocationContext with a zero-based operationOrdinal”; “One counter spans all registered methods and modules in an execute”; “sequential calls and concurrently started calls have distinct positions”; “discovery helpers do not consume registered-operation positions”; “The counter resets for each execute attempt”; “gives the same ordinals even though executionId is fresh”; “toolCallId and operationOrdinal”)',
        quote: 'gives the same ordinals even though executionId is fresh',
      },
    ],
  },
  {
    section: 'Operation identity within execute',
    statement:
      'A host that needs effect deduplication combines its stored Session and command identities with toolCallId and operationOrdinal; an ordinal alone is not a globally unique identity.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'gives every registered call a frozen context, ordinals allocated at call time, forage taking none (“a frozen InvocationContext with a zero-based operationOrdinal”; “One counter spans all registered methods and modules in an execute”; “sequential calls and concurrently started calls have distinct positions”; “discovery helpers do not consume registered-operation positions”; “The counter resets for each execute attempt”; “gives the same ordinals even though executionId is fresh”; “toolCallId and operationOrdinal”)',
        quote: 'toolCallId and operationOrdinal',
      },
    ],
  },
  {
    section: 'Operation identity within execute',
    statement:
      'Different call sequences are not promised identical positions, and the effect owner must still compare the intended operation and payload on replay.',
    notApplicable:
      'not applicable: a promise the runtime does not make and a duty of the effect’s owner; this host replays nothing (no effect deduplication is built)',
  },
  {
    section: 'Operation identity within execute',
    statement: 'This metadata grants neither authority nor permission to replay unsafe work.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'lets no invocation metadata stand in for a grant (“This metadata grants neither authority nor permission to replay unsafe work”)',
        quote: 'This metadata grants neither authority nor permission to replay unsafe work',
      },
    ],
  },
  {
    section: 'Operation identity within execute',
    statement:
      'Direct invokeModuleOperation callers supply their own context; outside an execute there is no enclosing call sequence, so operationOrdinal may be absent, just as toolCallId may be absent.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'lets a direct call bring its own context, and refuses a write without identity when the host requires it (“You can also execute a known operation without a model”; “Direct invokeModuleOperation callers supply their own context”; “refuse a write with missing identity rather than invent a fallback”)',
        quote: 'Direct invokeModuleOperation callers supply their own context',
      },
    ],
  },
  {
    section: 'Operation identity within execute',
    statement:
      'A host requiring execute identity must refuse a write with missing identity rather than invent a fallback.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'lets a direct call bring its own context, and refuses a write without identity when the host requires it (“You can also execute a known operation without a model”; “Direct invokeModuleOperation callers supply their own context”; “refuse a write with missing identity rather than invent a fallback”)',
        quote: 'refuse a write with missing identity rather than invent a fallback',
      },
    ],
  },
  {
    section: 'Access labels and grants',
    statement:
      'Each operation’s author labels what it does: access: "read" observes, access: "write" changes something, and an unlabelled operation is write.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'reads an unlabelled operation as a write that asks nobody (“an unlabelled operation is write”)',
        quote: 'an unlabelled operation is write',
      },
    ],
  },
  {
    section: 'Access labels and grants',
    statement: 'An author may add confirm: true to ask a person before each call.',
    tests: [
      {
        file: 'core/test/agent/access.test.ts',
        title:
          'runs a confirm operation once the person says yes, asking with module, operation and label only (“An author may add confirm: true to ask a person before each call”)',
        quote: 'An author may add confirm: true to ask a person before each call',
      },
    ],
  },
  {
    section: 'Access labels and grants',
    statement: 'Labels are fixed facts about the operation; the host never edits them.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'keeps the labels its author gave, frozen, whatever the host tries (“Labels are fixed facts about the operation; the host never edits them”)',
        quote: 'Labels are fixed facts about the operation; the host never edits them',
      },
    ],
  },
  {
    section: 'Access labels and grants',
    statement: 'The host passes its decisions down as data in access.',
    tests: [
      {
        file: 'core/test/agent/access.test.ts',
        title:
          'lets a read through a read grant and refuses a write as an ordinary result (“The host passes its decisions down as data in access”; “grants maps a module id to”; “A refused call returns an AccessRefusal”)',
        quote: 'The host passes its decisions down as data in access',
      },
    ],
  },
  {
    section: 'Access labels and grants',
    statement:
      'grants maps a module id to "write" (every operation), "read" (only read operations) or "none".',
    tests: [
      {
        file: 'core/test/agent/access.test.ts',
        title:
          'lets a read through a read grant and refuses a write as an ordinary result (“The host passes its decisions down as data in access”; “grants maps a module id to”; “A refused call returns an AccessRefusal”)',
        quote: 'grants maps a module id to',
      },
      {
        file: 'core/test/agent/access.test.ts',
        title:
          'refuses everything under none, and gives an unnamed module full access (“grants maps a module id to”; “A module the host does not name keeps full access”)',
        quote: 'grants maps a module id to',
      },
    ],
  },
  {
    section: 'Access labels and grants',
    statement:
      'A module the host does not name keeps full access, so a host that grants nothing writes no permission code.',
    tests: [
      {
        file: 'core/test/agent/access.test.ts',
        title:
          'refuses everything under none, and gives an unnamed module full access (“grants maps a module id to”; “A module the host does not name keeps full access”)',
        quote: 'A module the host does not name keeps full access',
      },
    ],
  },
  {
    section: 'Access labels and grants',
    statement:
      'sessionGrants reads the current Session’s stored grants at every call; they override grants key by key, so a revoked grant applies to the very next call.',
    tests: [
      {
        file: 'core/test/agent/access.test.ts',
        title:
          'reads the session grants at every call, so a revoke applies to the very next call (“a revoked grant applies to the very next call”)',
        quote: 'a revoked grant applies to the very next call',
      },
    ],
  },
  {
    section: 'Access labels and grants',
    statement: 'Keys in required fail closed: when neither names one, it is "none".',
    tests: [
      {
        file: 'core/test/agent/access.test.ts',
        title:
          'reads a required list at every call (“Keys in required fail closed: when neither names one, it is none”) (“Keys in required fail closed”)',
        quote: 'Keys in required fail closed',
      },
      {
        file: 'core/test/agent/access.test.ts',
        title: 'fails a required module closed unless a grant names it (“Keys in required fail closed”)',
        quote: 'Keys in required fail closed',
      },
    ],
  },
  {
    section: 'Access labels and grants',
    statement:
      'Labels are parsed at definition with ToolPolicySchema: anything but exactly "read"/"write" and a boolean confirm is a definition error.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'refuses anything but exactly read/write and a boolean confirm (“Labels are parsed at definition with ToolPolicySchema”)',
        quote: 'Labels are parsed at definition with ToolPolicySchema',
      },
    ],
  },
  {
    section: 'Access labels and grants',
    statement:
      'confirm is how the host asks a person; without it, a confirm operation is refused and never runs unasked.',
    tests: [
      {
        file: 'core/test/agent/access.test.ts',
        title:
          'refuses when the person declines, when the port fails, and when there is no one to ask (“without it, a confirm operation is refused and never runs unasked”)',
        quote: 'without it, a confirm operation is refused and never runs unasked',
      },
    ],
  },
  {
    section: 'Access labels and grants',
    statement: 'Mycelium checks the grant first, then the person, before the operation’s input decoder runs.',
    tests: [
      {
        file: 'core/test/agent/access.test.ts',
        title:
          'checks the grant before asking, and asks before decoding the input (“Access checks and authorization gates run before the operation”; “Mycelium checks the grant first, then the person, before the operation’s input decoder runs”)',
        quote: 'Mycelium checks the grant first, then the person, before the operation’s input decoder runs',
      },
    ],
  },
  {
    section: 'Access labels and grants',
    statement:
      'A refused call returns an AccessRefusal (module, operation, reason and a plain message) as its ordinary result.',
    tests: [
      {
        file: 'core/test/agent/access.test.ts',
        title:
          'lets a read through a read grant and refuses a write as an ordinary result (“The host passes its decisions down as data in access”; “grants maps a module id to”; “A refused call returns an AccessRefusal”)',
        quote: 'A refused call returns an AccessRefusal',
      },
    ],
  },
  {
    section: 'Access labels and grants',
    statement: 'onRefused observes each refusal for logs or metering and never changes the decision.',
    tests: [
      {
        file: 'core/test/agent/access.test.ts',
        title:
          'observes every refusal and cannot change the decision, not even by throwing (“onRefused observes each refusal for logs or metering and never changes the decision”)',
        quote: 'onRefused observes each refusal for logs or metering and never changes the decision',
      },
    ],
  },
  {
    section: 'Access labels and grants',
    statement:
      'Mycelium.grantAs looks a module’s grant up by a wider owner’s key, such as the extension that built it.',
    tests: [
      {
        file: 'core/test/agent/access.test.ts',
        title:
          'looks a module built under a wider owner up by the owner’s grant (grantAs), refusing under its own id (“looks a module’s grant up by a wider owner’s key”)',
        quote: 'looks a module’s grant up by a wider owner’s key',
      },
    ],
  },
  {
    section: 'Access labels and grants',
    statement:
      'Labelled direct tools passed as tools sit behind the same check and come back on the lease’s tools.',
    tests: [
      {
        file: 'core/test/agent/access.test.ts',
        title:
          'come back on the lease, behind the same checks as execute: grant, person, then input (“Labelled direct tools passed as tools sit behind the same check and come back on the lease’s tools”)',
        quote:
          'Labelled direct tools passed as tools sit behind the same check and come back on the lease’s tools',
      },
    ],
  },
  {
    section: 'Access labels and grants',
    statement: 'Access tests cover each rule.',
    notApplicable:
      'not applicable: about the tests themselves; this table is where each rule’s test is named',
  },
  {
    section: 'Nested namespaces',
    statement: 'Compose modules in operations to expose any namespace depth.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'exposes a child under the enclosing module, which stays the authority (“Stable module IDs identify authority”; “Compose modules in operations to expose any namespace depth”; “The enclosing module ID remains the authority identity”; “env.apps.bazaar.windows.open(...)”)',
        quote: 'Compose modules in operations to expose any namespace depth',
      },
    ],
  },
  {
    section: 'Nested namespaces',
    statement:
      'The enclosing module ID remains the authority identity; child registration IDs do not create new authority.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'exposes a child under the enclosing module, which stays the authority (“Stable module IDs identify authority”; “Compose modules in operations to expose any namespace depth”; “The enclosing module ID remains the authority identity”; “env.apps.bazaar.windows.open(...)”)',
        quote: 'The enclosing module ID remains the authority identity',
      },
      {
        file: 'core/test/agent/access.test.ts',
        title:
          'sees the relative path of a nested operation under the module’s own id (“A gate on the enclosing module sees relative paths such as windows.open”) (“child registration IDs do not create new authority”)',
        quote: 'child registration IDs do not create new authority',
      },
    ],
  },
  {
    section: 'Nested namespaces',
    statement:
      'For example, a module named bazaar with namespace: ["apps"] and operations: { windows: windowModule } exposes the child’s open operation as env.apps.bazaar.windows.open(...).',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'exposes a child under the enclosing module, which stays the authority (“Stable module IDs identify authority”; “Compose modules in operations to expose any namespace depth”; “The enclosing module ID remains the authority identity”; “env.apps.bazaar.windows.open(...)”)',
        quote: 'env.apps.bazaar.windows.open(...)',
      },
    ],
  },
  {
    section: 'Nested namespaces',
    statement: 'A child’s own namespace adds segments after its registration key.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'puts a child’s own namespace after its registration key (“A child’s own namespace adds segments after its registration key”)',
        quote: 'A child’s own namespace adds segments after its registration key',
      },
    ],
  },
  {
    section: 'Nested namespaces',
    statement:
      'Omit namespace for the ordinary depth-1 form env.demo.ping(...); the existing demo.ping(...) form also works.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title: 'calls an operation bare or under env (“the existing demo.ping(...) form also works”)',
        quote: 'the existing demo.ping(...) form also works',
      },
    ],
  },
  {
    section: 'Nested namespaces',
    statement:
      'An operation key may also be a dotted relative path: operations: { "repos.list": op } is called as env.<module>.repos.list(...), exactly like a child module repos with operation list.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'calls a dotted key exactly like a child module (“An operation key may also be a dotted relative path”)',
        quote: 'An operation key may also be a dotted relative path',
      },
    ],
  },
  {
    section: 'Nested namespaces',
    statement:
      'Installation refuses a key that is both an operation and a namespace prefix (files with files.read).',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'refuses a key that is both an operation and a namespace prefix (“Installation refuses a key that is both an operation and a namespace prefix”)',
        quote: 'Installation refuses a key that is both an operation and a namespace prefix',
      },
    ],
  },
  {
    section: 'Nested namespaces',
    statement: 'Every leaf keeps its declared input/output types.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'searches and describes the bounded catalogue under complete logical paths (“Forage prepares the bounded discovery catalog for the captured graph”; “Every leaf keeps its declared input/output types”)',
        quote: 'Every leaf keeps its declared input/output types',
      },
    ],
  },
  {
    section: 'Nested namespaces',
    statement: 'A gate on the enclosing module sees relative paths such as windows.open.',
    tests: [
      {
        file: 'core/test/agent/access.test.ts',
        title:
          'sees the relative path of a nested operation under the module’s own id (“A gate on the enclosing module sees relative paths such as windows.open”) (“child registration IDs do not create new authority”)',
        quote: 'A gate on the enclosing module sees relative paths such as windows.open',
      },
    ],
  },
  {
    section: 'Nested namespaces',
    statement:
      'Forage search, list and describe use the complete logical path, and descriptions declare the same nested, callable env.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'lists the catalogue under a path (“Forage search, list and describe use the complete logical path”)',
        quote: 'Forage search, list and describe use the complete logical path',
      },
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'offers one execute tool that says how to discover operations (“Mycelium gives an Agent typed operations through one execute tool”; “one top-level execute tool”; “descriptions declare the same nested, callable env”; “Guests still submit only code”)',
        quote: 'descriptions declare the same nested, callable env',
      },
    ],
  },
  {
    section: 'Nested namespaces',
    statement:
      'Names are allocated within their logical namespace, so an App and a Computer can share a name without renaming either.',
    tests: [
      {
        file: 'core/test/agent/operations.test.ts',
        title:
          'allocates names within their logical namespace (“Names are allocated within their logical namespace”) (“Names become model-facing aliases”)',
        quote: 'Names are allocated within their logical namespace',
      },
    ],
  },
  {
    section: 'Nested namespaces',
    statement: 'Transport aliases and flat operation tables remain host-only implementation details.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'offers no network, no filesystem, no module loader and no raw host hooks (“Transport aliases and flat operation tables remain host-only implementation details”; “disables guest network access, binds only the supplied operations”; “this entry provides no host-fetch fallback”)',
        quote: 'Transport aliases and flat operation tables remain host-only implementation details',
      },
    ],
  },
  {
    section: 'Nested namespaces',
    statement:
      'Sandbox adapters use /sandbox-guest’s parsed namespace metadata and sandboxGuestProgram to project those bindings; provider adapters also use sandboxProviderOperationName to avoid Codemode’s dotted-name collisions.',
    notApplicable:
      'not applicable: entry points of the seed’s own packages and Codemode; this host projects the bindings in core/agent/guest.ts, tested through every execute above',
  },
  {
    section: 'Changing capabilities and lifetime',
    statement:
      'Use sources when a host must acquire a current Computer, Connection or other capability projection.',
    tests: [
      {
        file: 'core/test/agent/leases.test.ts',
        title:
          'keeps a snapshot until invalidated; the next lease sees a new graph, the open one keeps its own (“Use sources when a host must acquire a current”; “Its invalidate() callback marks that snapshot stale”; “The next lease builds a new coherent graph”; “An existing lease keeps its captured snapshot”)',
        quote: 'Use sources when a host must acquire a current',
      },
    ],
  },
  {
    section: 'Changing capabilities and lifetime',
    statement: 'A source returns its bounded snapshot and an awaited release function.',
    tests: [
      {
        file: 'core/test/agent/leases.test.ts',
        title:
          'unwinds a partial acquisition in reverse order (“A source returns its bounded snapshot and an awaited release function”; “Partial acquisition unwinds already acquired sources in reverse order”)',
        quote: 'A source returns its bounded snapshot and an awaited release function',
      },
    ],
  },
  {
    section: 'Changing capabilities and lifetime',
    statement: 'Its invalidate() callback marks that snapshot stale.',
    tests: [
      {
        file: 'core/test/agent/leases.test.ts',
        title:
          'keeps a snapshot until invalidated; the next lease sees a new graph, the open one keeps its own (“Use sources when a host must acquire a current”; “Its invalidate() callback marks that snapshot stale”; “The next lease builds a new coherent graph”; “An existing lease keeps its captured snapshot”)',
        quote: 'Its invalidate() callback marks that snapshot stale',
      },
    ],
  },
  {
    section: 'Changing capabilities and lifetime',
    statement: 'The next lease builds a new coherent graph.',
    tests: [
      {
        file: 'core/test/agent/leases.test.ts',
        title:
          'keeps a snapshot until invalidated; the next lease sees a new graph, the open one keeps its own (“Use sources when a host must acquire a current”; “Its invalidate() callback marks that snapshot stale”; “The next lease builds a new coherent graph”; “An existing lease keeps its captured snapshot”)',
        quote: 'The next lease builds a new coherent graph',
      },
    ],
  },
  {
    section: 'Changing capabilities and lifetime',
    statement: 'An existing lease keeps its captured snapshot.',
    tests: [
      {
        file: 'core/test/agent/leases.test.ts',
        title:
          'keeps a snapshot until invalidated; the next lease sees a new graph, the open one keeps its own (“Use sources when a host must acquire a current”; “Its invalidate() callback marks that snapshot stale”; “The next lease builds a new coherent graph”; “An existing lease keeps its captured snapshot”)',
        quote: 'An existing lease keeps its captured snapshot',
      },
    ],
  },
  {
    section: 'Changing capabilities and lifetime',
    statement: 'Release each lease and close the runtime.',
    tests: [
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'lets a lease be released and the runtime closed while a call waits for a slot (“Release each lease and close the runtime”; “Waiting does not hold the lifecycle/revision gate needed for release or close”)',
        quote: 'Release each lease and close the runtime',
      },
    ],
  },
  {
    section: 'Changing capabilities and lifetime',
    statement: 'Partial acquisition unwinds already acquired sources in reverse order.',
    tests: [
      {
        file: 'core/test/agent/leases.test.ts',
        title:
          'unwinds a partial acquisition in reverse order (“A source returns its bounded snapshot and an awaited release function”; “Partial acquisition unwinds already acquired sources in reverse order”)',
        quote: 'Partial acquisition unwinds already acquired sources in reverse order',
      },
    ],
  },
  {
    section: 'Changing capabilities and lifetime',
    statement:
      'Mycelium owns the scoped resources it acquires, while the host owns durable relationships, credentials and current policy.',
    tests: [
      {
        file: 'core/test/agent/leases.test.ts',
        title:
          'runs each execute on a lease it releases, and reports a failing source as a failed capability (“acquires a coherent capability snapshot and releases it when the run ends”; “Mycelium owns the scoped resources it acquires”)',
        quote: 'Mycelium owns the scoped resources it acquires',
      },
    ],
  },
  {
    section: 'Changing capabilities and lifetime',
    statement: 'A captured snapshot does not excuse a missing final authority check.',
    tests: [
      {
        file: 'core/test/agent/bot.test.ts',
        title:
          'stops offering a spore that is no longer live (“A captured snapshot does not excuse a missing final authority check”)',
        quote: 'A captured snapshot does not excuse a missing final authority check',
      },
    ],
  },
  {
    section: 'Cancellation and errors',
    statement: 'Execution has a deadline, a cancellation acknowledgement grace and a bounded JSON result.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title: 'stops while (true) {} at its deadline (“Execution has a deadline”; “deadline/cancellation”)',
        quote: 'Execution has a deadline',
      },
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'cancels for the caller, and says so when a backing call has not settled within the grace (“If the sandbox ignores it, the result reports acknowledged: false”) (“a cancellation acknowledgement grace”; “Cancellation aborts the invocation signal and waits for backing sandbox settlement”; “A permit remains owned until actual backing settlement, including after an unacknowledged abort”; “An abort during execution remains authoritative after backing settlement”; “an abort does not release custody early”)',
        quote: 'a cancellation acknowledgement grace',
      },
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'refuses a result JSON cannot carry, and one past the bound (“a bounded JSON result”; “invalid or oversized results”; “The canonical Mycelium invocation owner checks its JSON result budget”)',
        quote: 'a bounded JSON result',
      },
    ],
  },
  {
    section: 'Cancellation and errors',
    statement: 'Cancellation aborts the invocation signal and waits for backing sandbox settlement.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'cancels for the caller, and says so when a backing call has not settled within the grace (“If the sandbox ignores it, the result reports acknowledged: false”) (“a cancellation acknowledgement grace”; “Cancellation aborts the invocation signal and waits for backing sandbox settlement”; “A permit remains owned until actual backing settlement, including after an unacknowledged abort”; “An abort during execution remains authoritative after backing settlement”; “an abort does not release custody early”)',
        quote: 'Cancellation aborts the invocation signal and waits for backing sandbox settlement',
      },
    ],
  },
  {
    section: 'Cancellation and errors',
    statement: 'If the sandbox ignores it, the result reports acknowledged: false.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'cancels for the caller, and says so when a backing call has not settled within the grace (“If the sandbox ignores it, the result reports acknowledged: false”) (“a cancellation acknowledgement grace”; “Cancellation aborts the invocation signal and waits for backing sandbox settlement”; “A permit remains owned until actual backing settlement, including after an unacknowledged abort”; “An abort during execution remains authoritative after backing settlement”; “an abort does not release custody early”)',
        quote: 'If the sandbox ignores it, the result reports acknowledged: false',
      },
    ],
  },
  {
    section: 'Cancellation and errors',
    statement: 'Do not report that work as stopped.',
    tests: [
      {
        file: 'core/test/agent/pool.test.ts',
        title:
          'ends a worker that ignores its stop, says the stop was not acknowledged, and replaces it (“Do not report that work as stopped”; “The concrete sandbox and broker decide how backing work is stopped”; “a wall-time timeout does not prove isolate termination”)',
        quote: 'Do not report that work as stopped',
      },
    ],
  },
  {
    section: 'Cancellation and errors',
    statement:
      'The typed failure channel includes syntax errors, guest exceptions, lost transport, bad responses, failed capabilities, deadline/cancellation and invalid or oversized results.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title: 'names a syntax error and a guest exception (“syntax errors, guest exceptions”)',
        quote: 'syntax errors, guest exceptions',
      },
      {
        file: 'core/test/agent/pool.test.ts',
        title: 'is a lost transport when it exits mid-program, and the next worker runs (“lost transport”)',
        quote: 'lost transport',
      },
      {
        file: 'core/test/agent/pool.test.ts',
        title: 'is a bad response when it answers outside the protocol (“bad responses”)',
        quote: 'bad responses',
      },
      {
        file: 'core/test/agent/failures.test.ts',
        title: 'is CapabilityFailed when that very error escapes, rethrown or not (“failed capabilities”)',
        quote: 'failed capabilities',
      },
      {
        file: 'core/test/agent/execute.test.ts',
        title: 'stops while (true) {} at its deadline (“Execution has a deadline”; “deadline/cancellation”)',
        quote: 'deadline/cancellation',
      },
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'refuses a result JSON cannot carry, and one past the bound (“a bounded JSON result”; “invalid or oversized results”; “The canonical Mycelium invocation owner checks its JSON result budget”)',
        quote: 'invalid or oversized results',
      },
    ],
  },
  {
    section: 'Cancellation and errors',
    statement: 'A foreign throw becomes Unknown.',
    tests: [
      {
        file: 'core/test/agent/failures.test.ts',
        title: 'make a foreign throw Unknown (“A foreign throw becomes Unknown”)',
        quote: 'A foreign throw becomes Unknown',
      },
    ],
  },
  {
    section: 'Cancellation and errors',
    statement: 'The model receives the bounded sandboxFailureMessage projection with a reference.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'bounds the message the model reads, keeping its reference, however long the guest made it (“The model receives the bounded sandboxFailureMessage projection with a reference”)',
        quote: 'The model receives the bounded sandboxFailureMessage projection with a reference',
      },
    ],
  },
  {
    section: 'Cancellation and errors',
    statement:
      'The host receives operator evidence through onSandboxFailure and the existing reporting path.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'reports a failed capability to the host with evidence, and to the model only by reference (“The host receives operator evidence through onSandboxFailure”; “Preserve that evidence without sending host diagnostics to the guest”)',
        quote: 'The host receives operator evidence through onSandboxFailure',
      },
      {
        file: 'core/test/agent/bot.test.ts',
        title:
          'logs a failed execute under the reference the model was given (“the existing reporting path”)',
        quote: 'the existing reporting path',
      },
    ],
  },
  {
    section: 'Cancellation and errors',
    statement: 'Preserve that evidence without sending host diagnostics to the guest.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'reports a failed capability to the host with evidence, and to the model only by reference (“The host receives operator evidence through onSandboxFailure”; “Preserve that evidence without sending host diagnostics to the guest”)',
        quote: 'Preserve that evidence without sending host diagnostics to the guest',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'The host-only execution options accept sandboxCapacity (a positive safe integer) and admissionWaitMs (an integer from 1 to 900,000 milliseconds, default 5,000).',
    tests: [
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'refuses a capacity that is not a positive safe integer and a wait outside 1..900,000 (“sandboxCapacity (a positive safe integer) and admissionWaitMs (an integer from 1 to 900,000 milliseconds”; “normalizeSandboxAdmissionPolicy(options, availableCores?) validates and resolves these host facts”; “Both public runtime facades validate and capture the policy when the runtime opens”)',
        quote:
          'sandboxCapacity (a positive safe integer) and admissionWaitMs (an integer from 1 to 900,000 milliseconds',
      },
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'takes an explicit capacity as given, above 32 too, and waits 5,000 ms unless told (“default 5,000”; “Explicit valid capacity overrides bypass observation and are not clamped, including values above 32”)',
        quote: 'default 5,000',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement: 'Guests still submit only code.',
    tests: [
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'offers one execute tool that says how to discover operations (“Mycelium gives an Agent typed operations through one execute tool”; “one top-level execute tool”; “descriptions declare the same nested, callable env”; “Guests still submit only code”)',
        quote: 'Guests still submit only code',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'An omitted capacity derives from available cores, clamped to 2..32; hosts without a portable core observation use 2.',
    tests: [
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'derives capacity from the cores, clamped to 2..32, 2 without a usable count (“An omitted capacity derives from available cores, clamped to 2..32”; “It does not reserve a slot or start a sandbox”)',
        quote: 'An omitted capacity derives from available cores, clamped to 2..32',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'Node captures its affinity-aware core count once per runtime through node:os.availableParallelism(), behind a platform-conditional module outside the Workers import graph.',
    notApplicable:
      'not applicable as written: there is no Workers import graph here; the bot reads availableParallelism() once per MCP endpoint (core/agent/mcp/bot.ts), and the clamping of what it reads is tested by “An omitted capacity derives from available cores, clamped to 2..32”',
  },
  {
    section: 'Sandbox admission',
    statement:
      'Explicit valid capacity overrides bypass observation and are not clamped, including values above 32.',
    tests: [
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'takes an explicit capacity as given, above 32 too, and waits 5,000 ms unless told (“default 5,000”; “Explicit valid capacity overrides bypass observation and are not clamped, including values above 32”)',
        quote:
          'Explicit valid capacity overrides bypass observation and are not clamped, including values above 32',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'normalizeSandboxAdmissionPolicy(options, availableCores?) validates and resolves these host facts.',
    tests: [
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'refuses a capacity that is not a positive safe integer and a wait outside 1..900,000 (“sandboxCapacity (a positive safe integer) and admissionWaitMs (an integer from 1 to 900,000 milliseconds”; “normalizeSandboxAdmissionPolicy(options, availableCores?) validates and resolves these host facts”; “Both public runtime facades validate and capture the policy when the runtime opens”)',
        quote:
          'normalizeSandboxAdmissionPolicy(options, availableCores?) validates and resolves these host facts',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement: 'It does not reserve a slot or start a sandbox.',
    tests: [
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'derives capacity from the cores, clamped to 2..32, 2 without a usable count (“An omitted capacity derives from available cores, clamped to 2..32”; “It does not reserve a slot or start a sandbox”)',
        quote: 'It does not reserve a slot or start a sandbox',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement: 'Both public runtime facades validate and capture the policy when the runtime opens.',
    tests: [
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'refuses a capacity that is not a positive safe integer and a wait outside 1..900,000 (“sandboxCapacity (a positive safe integer) and admissionWaitMs (an integer from 1 to 900,000 milliseconds”; “normalizeSandboxAdmissionPolicy(options, availableCores?) validates and resolves these host facts”; “Both public runtime facades validate and capture the policy when the runtime opens”)',
        quote: 'Both public runtime facades validate and capture the policy when the runtime opens',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'Admission belongs to the existing runtime-wide backing-work tracker, not each lease, group, or revision.',
    tests: [
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'answers SandboxBusy while every sandbox is held, here by a person still deciding (“Admission belongs to the existing runtime-wide backing-work tracker”; “it is contention, not an Unknown health alert”; “an actionable coded message”)',
        quote: 'Admission belongs to the existing runtime-wide backing-work tracker',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'A full pool waits until a slot opens or the earlier of the admission-wait deadline and the original invocation deadline.',
    tests: [
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'hands a freed slot to the next waiter (“A full pool waits until a slot opens”; “Queued work is registered before waiting”)',
        quote: 'A full pool waits until a slot opens',
      },
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'answers DeadlineExceeded when the invocation deadline comes first, or at the same time (“the earlier of the admission-wait deadline and the original invocation deadline”; “Invocation-deadline expiry remains DeadlineExceeded, including when both deadlines coincide”)',
        quote: 'the earlier of the admission-wait deadline and the original invocation deadline',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'Admission-wait expiry yields SandboxBusy, stable code sandbox-busy, with safe capacity and waitedMs facts; the submitted program has not run.',
    tests: [
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'answers SandboxBusy when the admission wait expires, without running the program (“Admission-wait expiry yields SandboxBusy”) (“No automatic replay is authorized”)',
        quote: 'Admission-wait expiry yields SandboxBusy',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement: 'Invocation-deadline expiry remains DeadlineExceeded, including when both deadlines coincide.',
    tests: [
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'answers DeadlineExceeded when the invocation deadline comes first, or at the same time (“the earlier of the admission-wait deadline and the original invocation deadline”; “Invocation-deadline expiry remains DeadlineExceeded, including when both deadlines coincide”)',
        quote: 'Invocation-deadline expiry remains DeadlineExceeded, including when both deadlines coincide',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement: 'Caller cancellation remains Cancelled.',
    tests: [
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'lets a cancelled waiter go, and never starts it later (“no expired/cancelled waiter may start later”) (“Caller cancellation remains Cancelled”)',
        quote: 'Caller cancellation remains Cancelled',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement: 'Queueing does not restart the execution timeout.',
    tests: [
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'keeps the deadline a queued call was given when it was made (“Queueing does not restart the execution timeout”)',
        quote: 'Queueing does not restart the execution timeout',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement: 'No automatic replay is authorized.',
    tests: [
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'answers SandboxBusy when the admission wait expires, without running the program (“Admission-wait expiry yields SandboxBusy”) (“No automatic replay is authorized”)',
        quote: 'No automatic replay is authorized',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'The runtime uses one maintained Effect semaphore across source revisions and interruptible deadline APIs.',
    notApplicable:
      'not applicable as written: this Promise host admits with its own SandboxAdmission, one per runtime (or per MCP endpoint) across source revisions, as “Admission belongs to the existing runtime-wide backing-work tracker” tests',
  },
  {
    section: 'Sandbox admission',
    statement: 'Queued work is registered before waiting.',
    tests: [
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'hands a freed slot to the next waiter (“A full pool waits until a slot opens”; “Queued work is registered before waiting”)',
        quote: 'Queued work is registered before waiting',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement: 'Cancellation removes queued work; no expired/cancelled waiter may start later.',
    tests: [
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'lets a cancelled waiter go, and never starts it later (“no expired/cancelled waiter may start later”) (“Caller cancellation remains Cancelled”)',
        quote: 'no expired/cancelled waiter may start later',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'A permit remains owned until actual backing settlement, including after an unacknowledged abort.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'cancels for the caller, and says so when a backing call has not settled within the grace (“If the sandbox ignores it, the result reports acknowledged: false”) (“a cancellation acknowledgement grace”; “Cancellation aborts the invocation signal and waits for backing sandbox settlement”; “A permit remains owned until actual backing settlement, including after an unacknowledged abort”; “An abort during execution remains authoritative after backing settlement”; “an abort does not release custody early”)',
        quote:
          'A permit remains owned until actual backing settlement, including after an unacknowledged abort',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement: 'Waiting does not hold the lifecycle/revision gate needed for release or close.',
    tests: [
      {
        file: 'core/test/agent/admission.test.ts',
        title:
          'lets a lease be released and the runtime closed while a call waits for a slot (“Release each lease and close the runtime”; “Waiting does not hold the lifecycle/revision gate needed for release or close”)',
        quote: 'Waiting does not hold the lifecycle/revision gate needed for release or close',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'SandboxBusy is admitted by the existing owned-error decoder, safe transport, host wire and operator-event grammar; it is contention, not an Unknown health alert.',
    tests: [
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'answers SandboxBusy while every sandbox is held, here by a person still deciding (“Admission belongs to the existing runtime-wide backing-work tracker”; “it is contention, not an Unknown health alert”; “an actionable coded message”)',
        quote: 'it is contention, not an Unknown health alert',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'The execute tool retains its safe typed cause and an actionable coded message without changing Mule’s error contract.',
    tests: [
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'answers SandboxBusy while every sandbox is held, here by a person still deciding (“Admission belongs to the existing runtime-wide backing-work tracker”; “it is contention, not an Unknown health alert”; “an actionable coded message”)',
        quote: 'an actionable coded message',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'Unrelated foreign failures stay Unknown: do not classify diagnostic prose, unwrap arbitrary cause chains, or mislabel an arbitrary adapter AbortError as caller-authorized cancellation.',
    tests: [
      {
        file: 'core/test/agent/failures.test.ts',
        title:
          'keep unrelated foreign failures Unknown whatever they say, are named or wrap (“do not classify diagnostic prose, unwrap arbitrary cause chains, or mislabel an arbitrary adapter AbortError as caller-authorized cancellation”)',
        quote:
          'do not classify diagnostic prose, unwrap arbitrary cause chains, or mislabel an arbitrary adapter AbortError as caller-authorized cancellation',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'An Effect host with a Promise sandbox uses fromTypedSandbox, which waits for that Promise to settle when interrupted.',
    tests: [
      {
        file: 'core/test/agent/typed-sandbox.test.ts',
        title:
          'waits for the Promise to settle when interrupted (“which waits for that Promise to settle when interrupted”)',
        quote: 'which waits for that Promise to settle when interrupted',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement: 'The concrete sandbox and broker decide how backing work is stopped.',
    tests: [
      {
        file: 'core/test/agent/pool.test.ts',
        title:
          'ends a worker that ignores its stop, says the stop was not acknowledged, and replaces it (“Do not report that work as stopped”; “The concrete sandbox and broker decide how backing work is stopped”; “a wall-time timeout does not prove isolate termination”)',
        quote: 'The concrete sandbox and broker decide how backing work is stopped',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement: 'Hosts supply the Worker Loader binding and credential custody.',
    notApplicable: 'not applicable: Workers and Codemode are not built; this host is Bun (docs/agent.md)',
  },
  {
    section: 'Sandbox admission',
    statement:
      'The Workers-only @fungi.computer/mycelium/workers entry exports createCodemodeSandbox(loader, adapter?, options?), a Codemode adapter runnable on Workers and celld.',
    notApplicable: 'not applicable: Workers and Codemode are not built; this host is Bun (docs/agent.md)',
  },
  {
    section: 'Sandbox admission',
    statement:
      'It disables guest network access, binds only the supplied operations, preserves typed failures and awaits the backing execution when cancellation cannot be acknowledged.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'offers no network, no filesystem, no module loader and no raw host hooks (“Transport aliases and flat operation tables remain host-only implementation details”; “disables guest network access, binds only the supplied operations”; “this entry provides no host-fetch fallback”)',
        quote: 'disables guest network access, binds only the supplied operations',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement: 'Import this entry only in Workers hosts; the root and other Node entries do not load it.',
    notApplicable: 'not applicable: Workers and Codemode are not built; this host is Bun (docs/agent.md)',
  },
  {
    section: 'Sandbox admission',
    statement:
      'The adapter forwards the request’s existing timeoutMs budget as the Worker Loader’s cpuMs limit, retaining any tighter loader limit.',
    notApplicable: 'not applicable: Workers and Codemode are not built; this host is Bun (docs/agent.md)',
  },
  {
    section: 'Sandbox admission',
    statement: 'Cloudflare and celld enforce native CPU limits.',
    notApplicable: 'not applicable: Workers and Codemode are not built; this host is Bun (docs/agent.md)',
  },
  {
    section: 'Sandbox admission',
    statement: 'Local workerd development does not; execution still runs.',
    notApplicable: 'not applicable: Workers and Codemode are not built; this host is Bun (docs/agent.md)',
  },
  {
    section: 'Sandbox admission',
    statement:
      'The local host declares that fact with { localDevUnenforcedLimits: ["cpu"] } as the third argument.',
    notApplicable: 'not applicable: Workers and Codemode are not built; this host is Bun (docs/agent.md)',
  },
  {
    section: 'Sandbox admission',
    statement:
      'Mycelium prints CPU limits are not enforced in local dev once per runtime, across sandbox instances.',
    notApplicable: 'not applicable: Workers and Codemode are not built; this host is Bun (docs/agent.md)',
  },
  {
    section: 'Sandbox admission',
    statement:
      'Hosts may also declare unenforced memory, output and cancel controls; each gets its own once-only diagnostic.',
    notApplicable: 'not applicable: Workers and Codemode are not built; this host is Bun (docs/agent.md)',
  },
  {
    section: 'Sandbox admission',
    statement: 'The option reports host facts; it adds no enforcement or guest policy.',
    notApplicable: 'not applicable: Workers and Codemode are not built; this host is Bun (docs/agent.md)',
  },
  {
    section: 'Sandbox admission',
    statement:
      'Cancellation still waits for backing settlement, and a wall-time timeout does not prove isolate termination.',
    tests: [
      {
        file: 'core/test/agent/pool.test.ts',
        title:
          'ends a worker that ignores its stop, says the stop was not acknowledged, and replaces it (“Do not report that work as stopped”; “The concrete sandbox and broker decide how backing work is stopped”; “a wall-time timeout does not prove isolate termination”)',
        quote: 'a wall-time timeout does not prove isolate termination',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'The Worker Loader custom-limit contract and the pinned celld invocation types expose cpuMs and subRequests.',
    notApplicable: 'not applicable: Workers and Codemode are not built; this host is Bun (docs/agent.md)',
  },
  {
    section: 'Sandbox admission',
    statement: 'They do not expose per-invocation memory or output caps, or an execution-cancel operation.',
    notApplicable: 'not applicable: Workers and Codemode are not built; this host is Bun (docs/agent.md)',
  },
  {
    section: 'Sandbox admission',
    statement: 'The adapter preserves supported loader limits without inventing fields for those controls.',
    notApplicable: 'not applicable: Workers and Codemode are not built; this host is Bun (docs/agent.md)',
  },
  {
    section: 'Sandbox admission',
    statement:
      'Host-wide memory limits remain host configuration; they are not a guest-widenable sandbox setting.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'stops a program past its memory limit as a guest failure (“Host-wide memory limits remain host configuration; they are not a guest-widenable sandbox setting”)',
        quote:
          'Host-wide memory limits remain host configuration; they are not a guest-widenable sandbox setting',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'The canonical Mycelium invocation owner checks its JSON result budget; calling the bare Sandbox interface does not run that owner’s result validation.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'refuses a result JSON cannot carry, and one past the bound (“a bounded JSON result”; “invalid or oversized results”; “The canonical Mycelium invocation owner checks its JSON result budget”)',
        quote: 'The canonical Mycelium invocation owner checks its JSON result budget',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement: 'An abort before dispatch starts no guest.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'starts no guest for a call aborted before it is dispatched (“An abort before dispatch starts no guest”)',
        quote: 'An abort before dispatch starts no guest',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'An abort during execution remains authoritative after backing settlement: the adapter’s Promise rejects with typed Cancelled { by: "caller" } instead of resolving a late success.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'cancels for the caller, and says so when a backing call has not settled within the grace (“If the sandbox ignores it, the result reports acknowledged: false”) (“a cancellation acknowledgement grace”; “Cancellation aborts the invocation signal and waits for backing sandbox settlement”; “A permit remains owned until actual backing settlement, including after an unacknowledged abort”; “An abort during execution remains authoritative after backing settlement”; “an abort does not release custody early”)',
        quote: 'An abort during execution remains authoritative after backing settlement',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement:
      'Hosts retain invocation custody until that Promise settles; an abort does not release custody early.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'cancels for the caller, and says so when a backing call has not settled within the grace (“If the sandbox ignores it, the result reports acknowledged: false”) (“a cancellation acknowledgement grace”; “Cancellation aborts the invocation signal and waits for backing sandbox settlement”; “A permit remains owned until actual backing settlement, including after an unacknowledged abort”; “An abort during execution remains authoritative after backing settlement”; “an abort does not release custody early”)',
        quote: 'an abort does not release custody early',
      },
    ],
  },
  {
    section: 'Sandbox admission',
    statement: 'Codemode has no immediate cancellation API.',
    notApplicable: 'not applicable: Workers and Codemode are not built; this host is Bun (docs/agent.md)',
  },
  {
    section: 'Sandbox admission',
    statement:
      'The native qualification checks this behavior through the real Worker Loader, along with the trusted deadline, CPU forwarding and once-only local notices.',
    notApplicable: 'not applicable: Workers and Codemode are not built; this host is Bun (docs/agent.md)',
  },
  {
    section: 'Sandbox admission',
    statement: 'These are sandbox checks; they do not prove a Workflow host’s cancellation path.',
    notApplicable:
      'not applicable: says what the Workers qualification does not prove; no Workflow host here',
  },
  {
    section: 'MCP',
    statement:
      '@fungi.computer/mycelium/mcp exports createMcp({ catalog, authenticate }), returning { handleRequest, close }.',
    tests: [
      {
        file: 'core/test/http/mcp-mounted.test.ts',
        title:
          'lets an agent with the owner’s key list the spores, and refuses one without a key (“createMcp({ catalog, authenticate }), returning { handleRequest, close }”; “Mount handleRequest at the host’s MCP route”)',
        quote: 'createMcp({ catalog, authenticate }), returning { handleRequest, close }',
      },
    ],
  },
  {
    section: 'MCP',
    statement: 'Mount handleRequest at the host’s MCP route.',
    tests: [
      {
        file: 'core/test/http/mcp-mounted.test.ts',
        title:
          'lets an agent with the owner’s key list the spores, and refuses one without a key (“createMcp({ catalog, authenticate }), returning { handleRequest, close }”; “Mount handleRequest at the host’s MCP route”)',
        quote: 'Mount handleRequest at the host’s MCP route',
      },
    ],
  },
  {
    section: 'MCP',
    statement:
      'Authentication runs for every HTTP request, including notifications and disconnects, and before each operation.',
    tests: [
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'answers 401 to no key, an unknown key and a revoked one, on every request (“Authentication runs for every HTTP request, including notifications and disconnects, and before each operation”; “status: 401 | 403”)',
        quote:
          'Authentication runs for every HTTP request, including notifications and disconnects, and before each operation',
      },
    ],
  },
  {
    section: 'MCP',
    statement: 'Return either { kind: "admitted", principal } or { kind: "refused", status: 401 | 403 }.',
    tests: [
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'answers 401 to no key, an unknown key and a revoked one, on every request (“Authentication runs for every HTTP request, including notifications and disconnects, and before each operation”; “status: 401 | 403”)',
        quote: 'status: 401 | 403',
      },
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          "answers 403 to a key whose person can do nothing here, and to another key's session (“status: 401 | 403”)",
        quote: 'status: 401 | 403',
      },
    ],
  },
  {
    section: 'MCP',
    statement:
      'The principal is the host’s canonical actor: a member with its role ({ actor: { kind: "member", memberId }, role }), or an Agent or Team key ({ actor: { kind: "agent", agentId } }, { actor: { kind: "team-key", keyId } }).',
    notApplicable:
      'shaped differently: the principal is McpPrincipal { principalId, keyId }, the person an agent key acts for and the key (docs/agent.md); its ids are tested by “Its ids identify the credential’s actor, never a bearer token”',
  },
  {
    section: 'MCP',
    statement: 'Its ids identify the credential’s actor, never a bearer token.',
    tests: [
      {
        file: 'core/test/mcp/resume.test.ts',
        title:
          'keeps a connection by the key’s id and a digest of its own, never a secret (“Its ids identify the credential’s actor, never a bearer token”) (“without persisting request callbacks”)',
        quote: 'Its ids identify the credential’s actor, never a bearer token',
      },
    ],
  },
  {
    section: 'MCP',
    statement:
      'For installed-App hosts, createMcpCatalog({ load, sandbox }) adapts ordinary Mycelium capability sources.',
    notApplicable:
      'shaped differently: the bot’s McpCatalog opens one agent runtime per execute over its own capability sources (core/agent/mcp/bot.ts); there are no installed Apps',
  },
  {
    section: 'MCP',
    statement:
      'load(principal) returns the current { instructions, sources, grants } authorized for that principal.',
    tests: [
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'applies a role taken away to the very next call on the same connection (“returns the current { instructions, sources, grants } authorized for that principal”; “Each invocation must begin a fresh authority read”)',
        quote: 'returns the current { instructions, sources, grants } authorized for that principal',
      },
    ],
  },
  {
    section: 'MCP',
    statement: 'It runs again before execution and after approval.',
    tests: [
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'reads the grants again after the person says yes: a role taken meanwhile runs nothing (“It runs again before execution and after approval”; “refresh authority after acceptance”)',
        quote: 'It runs again before execution and after approval',
      },
    ],
  },
  {
    section: 'MCP',
    statement:
      'Each invocation must begin a fresh authority read; returning an older cached snapshot cannot establish current grants.',
    tests: [
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'applies a role taken away to the very next call on the same connection (“returns the current { instructions, sources, grants } authorized for that principal”; “Each invocation must begin a fresh authority read”)',
        quote: 'Each invocation must begin a fresh authority read',
      },
    ],
  },
  {
    section: 'MCP',
    statement: 'Grants are explicit: an omitted module is refused.',
    tests: [
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'refuses the operations of a spore that appeared after the key was made, unless its person has its commands (“Grants are explicit: an omitted module is refused”)',
        quote: 'Grants are explicit: an omitted module is refused',
      },
    ],
  },
  {
    section: 'MCP',
    statement:
      'The supplied sandbox remains the host’s isolated executor; this entry provides no host-fetch fallback.',
    tests: [
      {
        file: 'core/test/agent/execute.test.ts',
        title:
          'offers no network, no filesystem, no module loader and no raw host hooks (“Transport aliases and flat operation tables remain host-only implementation details”; “disables guest network access, binds only the supplied operations”; “this entry provides no host-fetch fallback”)',
        quote: 'this entry provides no host-fetch fallback',
      },
    ],
  },
  {
    section: 'MCP',
    statement:
      'This catalog keeps at most eight open connections in process memory and releases each acquired tool runtime when its request finishes.',
    tests: [
      {
        file: 'core/test/mcp/connections.test.ts',
        title:
          'gives the slot of a connection idle past its allowance to a new one (“keeps at most eight open connections in process memory”; “open atomically reserves the supplied connection bound”)',
        quote: 'keeps at most eight open connections in process memory',
      },
    ],
  },
  {
    section: 'MCP',
    statement: 'Durable Agent hosts implement McpCatalogProvider over their existing Session owner.',
    tests: [
      {
        file: 'core/test/mcp/resume.test.ts',
        title:
          'reads with the grants the restarted bot holds, and refuses a write no elicitation was recorded for (“After transport process loss, a resumed connection has no recorded client elicitation capability and refuses writes”) (“Durable Agent hosts implement McpCatalogProvider over their existing Session owner”; “Session retention and connection persistence remain with the catalog owner”)',
        quote: 'Durable Agent hosts implement McpCatalogProvider over their existing Session owner',
      },
    ],
  },
  {
    section: 'MCP',
    statement:
      'open atomically reserves the supplied connection bound, resume returns only an open principal-bound Session, and refresh delivers current grants.',
    tests: [
      {
        file: 'core/test/mcp/connections.test.ts',
        title:
          'gives the slot of a connection idle past its allowance to a new one (“keeps at most eight open connections in process memory”; “open atomically reserves the supplied connection bound”)',
        quote: 'open atomically reserves the supplied connection bound',
      },
      {
        file: 'core/test/mcp/resume.test.ts',
        title:
          'carries on without initializing again, for the key that opened it (“resume returns only an open principal-bound Session”)',
        quote: 'resume returns only an open principal-bound Session',
      },
      {
        file: 'core/test/mcp/resume.test.ts',
        title: 'reads the grants again on every call after it carries on (“refresh delivers current grants”)',
        quote: 'refresh delivers current grants',
      },
    ],
  },
  {
    section: 'MCP',
    statement: 'The MCP server independently checks the stored principal.',
    tests: [
      {
        file: 'core/test/mcp/resumed.test.ts',
        title:
          'belongs to the key that opened it: another key is refused 403 on it (“The MCP server independently checks the stored principal”)',
        quote: 'The MCP server independently checks the stored principal',
      },
    ],
  },
  {
    section: 'MCP',
    statement:
      'The Session’s call must carry McpExecutionContext.access into its ordinary Mycelium execution, including direct tools, without persisting request callbacks.',
    tests: [
      {
        file: 'core/test/mcp/resume.test.ts',
        title:
          'keeps a connection by the key’s id and a digest of its own, never a secret (“Its ids identify the credential’s actor, never a bearer token”) (“without persisting request callbacks”)',
        quote: 'without persisting request callbacks',
      },
    ],
  },
  {
    section: 'MCP',
    statement: 'MCP does not force confirmation for every write.',
    tests: [
      {
        file: 'core/test/mcp/resume.test.ts',
        title:
          'runs a write with no confirm label without asking anyone (“MCP does not force confirmation for every write”)',
        quote: 'MCP does not force confirmation for every write',
      },
    ],
  },
  {
    section: 'MCP',
    statement:
      'The host’s durable approval owner decides whether a write applies, waits for approval or is denied; the catalog’s grants remain authority ceilings, not approval decisions.',
    tests: [
      {
        file: 'core/test/mcp/chat-confirm.test.ts',
        title:
          "runs the write on its person's yes, ignoring anyone else's and any other word (“The host’s durable approval owner decides whether a write applies”)",
        quote: 'The host’s durable approval owner decides whether a write applies',
      },
    ],
  },
  {
    section: 'MCP',
    statement:
      'Explicit operation-level confirmation labels still use form elicitation and refresh authority after acceptance.',
    tests: [
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'disables a spore once the person accepts the form, asked only module, operation and access (“Explicit operation-level confirmation labels still use form elicitation”; “Approval requests contain the module, operation and access label, not credential data or operation arguments”)',
        quote: 'Explicit operation-level confirmation labels still use form elicitation',
      },
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'reads the grants again after the person says yes: a role taken meanwhile runs nothing (“It runs again before execution and after approval”; “refresh authority after acceptance”)',
        quote: 'refresh authority after acceptance',
      },
    ],
  },
  {
    section: 'MCP',
    statement: 'Missing or declined explicit confirmation refuses execution.',
    tests: [
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'leaves the spore alone when the person declines (“Missing or declined explicit confirmation refuses execution”)',
        quote: 'Missing or declined explicit confirmation refuses execution',
      },
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'refuses a confirm operation over a client that cannot be asked (“Missing or declined explicit confirmation refuses execution”)',
        quote: 'Missing or declined explicit confirmation refuses execution',
      },
    ],
  },
  {
    section: 'MCP',
    statement:
      'The server supports MCP 2025-11-25 Streamable HTTP so an approval can suspend the existing execution without replaying already-completed operations.',
    tests: [
      {
        file: 'core/test/mcp/resume.test.ts',
        title:
          'is suspended on the form and carries on, never running again what already ran (“an approval can suspend the existing execution without replaying already-completed operations”)',
        quote:
          'an approval can suspend the existing execution without replaying already-completed operations',
      },
    ],
  },
  {
    section: 'MCP',
    statement:
      'Approval requests contain the module, operation and access label, not credential data or operation arguments.',
    tests: [
      {
        file: 'core/test/mcp/mcp.test.ts',
        title:
          'disables a spore once the person accepts the form, asked only module, operation and access (“Explicit operation-level confirmation labels still use form elicitation”; “Approval requests contain the module, operation and access label, not credential data or operation arguments”)',
        quote:
          'Approval requests contain the module, operation and access label, not credential data or operation arguments',
      },
    ],
  },
  {
    section: 'MCP',
    statement:
      'close() closes transport streams; Session retention and connection persistence remain with the catalog owner.',
    tests: [
      {
        file: 'core/test/mcp/resumed.test.ts',
        title:
          'closes every connection: its client is refused, and nothing new is opened (“close() closes transport streams”)',
        quote: 'close() closes transport streams',
      },
      {
        file: 'core/test/mcp/resume.test.ts',
        title:
          'reads with the grants the restarted bot holds, and refuses a write no elicitation was recorded for (“After transport process loss, a resumed connection has no recorded client elicitation capability and refuses writes”) (“Durable Agent hosts implement McpCatalogProvider over their existing Session owner”; “Session retention and connection persistence remain with the catalog owner”)',
        quote: 'Session retention and connection persistence remain with the catalog owner',
      },
    ],
  },
  {
    section: 'MCP',
    statement:
      'After transport process loss, a resumed connection has no recorded client elicitation capability and refuses writes.',
    tests: [
      {
        file: 'core/test/mcp/resume.test.ts',
        title:
          'reads with the grants the restarted bot holds, and refuses a write no elicitation was recorded for (“After transport process loss, a resumed connection has no recorded client elicitation capability and refuses writes”) (“Durable Agent hosts implement McpCatalogProvider over their existing Session owner”; “Session retention and connection persistence remain with the catalog owner”)',
        quote:
          'After transport process loss, a resumed connection has no recorded client elicitation capability and refuses writes',
      },
    ],
  },
  {
    section: 'MCP',
    statement: 'Delete that connection and initialize a fresh one to negotiate form elicitation again.',
    tests: [
      {
        file: 'core/test/mcp/resumed.test.ts',
        title:
          'ends when the client ends it: never resumed again, a fresh connection asks and writes (“Delete that connection and initialize a fresh one to negotiate form elicitation again”)',
        quote: 'Delete that connection and initialize a fresh one to negotiate form elicitation again',
      },
    ],
  },
]
