/// The control ids seen so far while a tree is checked, and how many nodes
/// the check visited: one value for the whole walk.
///
/// It cannot be copied (`~Copyable`): no node can take its own copy of the ids
/// seen before it, the copy that once made checking a wide tree quadratic (a
/// provider drew 60,000 buttons and the host spent 12 s of CPU per rendering).
/// `nodesChecked` lets tests count the walk's work instead of timing it.
struct ControlIDs: ~Copyable {
  private var seen: Set<String> = []
  /// How many nodes the walk checked (a styled node and its node count once).
  private(set) var nodesChecked = 0

  init() {}

  /// How many distinct ids were inserted.
  var count: Int { seen.count }

  /// Adds `id`; false when it was seen before.
  mutating func insert(_ id: String) -> Bool { seen.insert(id).inserted }

  mutating func countNode() { nodesChecked += 1 }
}
