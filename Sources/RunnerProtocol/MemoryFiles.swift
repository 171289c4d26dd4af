/// `TPMemoryFiles`: the provider may make memory files (`memfd_create`).
/// Their pages are in no process's address space, so `RLIMIT_AS` does not
/// count them: without a cgroup, a provider could hold any amount of memory
/// through them. Refused unless the manifest declares the key as true.
package struct MemoryFiles: SandboxRule {
  package static let manifestKey = "TPMemoryFiles"

  package var isAllowed: Bool

  package init(isAllowed: Bool = false) { self.isAllowed = isAllowed }

  package var grant: String? {
    isAllowed ? "makes memory files (memfd_create), which the memory limit does not count (\(Self.manifestKey))" : nil
  }

  package func encode(to writer: inout WireWriter) { writer.boolean(isAllowed) }

  package init(from reader: inout WireReader) throws(ProtocolError) { isAllowed = try reader.boolean() }
}
