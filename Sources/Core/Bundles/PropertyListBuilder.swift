/// Assembles a `PropertyListValue` from the events of a reader (open a
/// container, a key, a value, close), on an explicit stack.
///
/// The three readers share it so that they enforce the same limits in the same
/// place: nesting deeper than `PropertyListLimits.maximumDepth` and more than
/// `maximumObjects` values are refused as they happen, and a key written twice
/// in one dictionary is refused with its path, where Foundation silently keeps
/// the last value (a manifest must not mean two things to two readers). No
/// reader recurses, so no input can exhaust the thread's stack.
struct PropertyListBuilder {
  /// One open array or dictionary.
  private struct Container {
    var isDictionary: Bool
    /// The container's place in its parent: a key, or `[index]`; for error messages.
    var label: String
    var elements: [PropertyListValue] = []
    var entries: [String: PropertyListValue] = [:]
    /// A dictionary key read, whose value has not come yet.
    var key: String?
  }

  private var containers: [Container] = []
  private var objects = 0
  /// The finished top-level value.
  private(set) var root: PropertyListValue?

  /// How many containers are open.
  var depth: Int { containers.count }
  /// Whether the innermost open container is a dictionary.
  var isInDictionary: Bool { containers.last?.isDictionary ?? false }
  /// Whether the innermost open container is a dictionary with a key waiting for its value.
  var hasPendingKey: Bool { containers.last?.key != nil }

  /// Opens an array or a dictionary as the next value.
  mutating func open(dictionary: Bool) throws(PropertyListLimits.Violation) {
    guard containers.count < PropertyListLimits.maximumDepth else { throw .tooDeep }
    try checkPlace()
    try count()
    let label = containers.last.map { $0.key ?? "[\($0.elements.count)]" } ?? ""
    containers.append(Container(isDictionary: dictionary, label: label))
  }

  /// The key of the next value of the open dictionary.
  mutating func key(_ key: String) throws(PropertyListLimits.Violation) {
    precondition(isInDictionary && !hasPendingKey, "a reader must check that a key may come here")
    guard containers[containers.count - 1].entries[key] == nil else { throw .duplicateKey(path(to: key)) }
    containers[containers.count - 1].key = key
  }

  /// A scalar value (string, number, Boolean, date or data).
  mutating func value(_ value: PropertyListValue) throws(PropertyListLimits.Violation) {
    try checkPlace()
    try count()
    add(value)
  }

  /// Closes the innermost container and adds it to its parent.
  mutating func close() {
    precondition(!containers.isEmpty && !hasPendingKey, "a reader must check that a container may close here")
    let container = containers.removeLast()
    add(container.isDictionary ? .dictionary(container.entries) : .array(container.elements))
  }

  /// Checks that a value may come here: a first top-level value, an array
  /// element, or the value of a key just read.
  private func checkPlace() throws(PropertyListLimits.Violation) {
    guard let container = containers.last else {
      guard root == nil else { throw .malformed("a second value after the top-level one") }
      return
    }
    guard !container.isDictionary || container.key != nil else { throw .malformed("a value without a key in a dictionary") }
  }

  private mutating func count() throws(PropertyListLimits.Violation) {
    objects += 1
    guard objects <= PropertyListLimits.maximumObjects else { throw .tooManyObjects }
  }

  private mutating func add(_ value: PropertyListValue) {
    guard !containers.isEmpty else {
      root = value
      return
    }
    let last = containers.count - 1
    if let key = containers[last].key {
      containers[last].entries[key] = value
      containers[last].key = nil
    } else {
      containers[last].elements.append(value)
    }
  }

  /// The key path of `key` in the open dictionary, as `KeyReader` names keys
  /// (`TPSettings[0].Key`).
  private func path(to key: String) -> String {
    var path = ""
    for container in containers.dropFirst() {
      if !path.isEmpty && !container.label.hasPrefix("[") { path += "." }
      path += container.label
    }
    return path.isEmpty ? key : path + "." + key
  }
}
