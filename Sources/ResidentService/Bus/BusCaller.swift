/// Who made a D-Bus call, as the bus daemon vouches (`GetConnectionCredentials`).
struct BusCaller: Sendable, Equatable {
  /// The caller's unique connection name, such as `:1.42`.
  var uniqueName: String
  var uid: UInt32
  var pid: Int32
}
