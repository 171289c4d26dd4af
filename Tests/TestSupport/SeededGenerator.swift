import Glibc

/// Random values a failing run can have again: SplitMix64 from
/// `TRANSLATION_HOST_TEST_SEED`, or from a fresh seed, printed before use (a
/// crash leaves no time to print it after).
package struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  /// `purpose` names what the values are for in the printed line.
  package init(for purpose: String) {
    let variable = "TRANSLATION_HOST_TEST_SEED"
    if let text = getenv(variable).map({ String(cString: $0) }) {
      guard let seed = UInt64(text) else { fatalError("\(variable) must be a whole number, not '\(text)'") }
      state = seed
    } else {
      var system = SystemRandomNumberGenerator()
      state = system.next()
    }
    print("\(purpose): random values from seed \(state); \(variable)=\(state) repeats them.")
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
