import FoundationEssentials

/// A translation direction installed on this machine: a mode file in
/// Apertium's modes folder, such as `eng-spa.mode`.
public struct ApertiumPair: Hashable, Sendable {
  /// The mode's name, `eng-spa`, as `apertium eng-spa` takes it.
  public var mode: String
  /// The mode file.
  public var modeFile: String
  /// BCP-47 tags.
  public var source: String
  public var target: String

  /// Where Debian installs the modes.
  public static let modesFolder = "/usr/share/apertium/modes"

  /// The pairs whose modes are installed in `folder`. Modes that are not
  /// translation directions (`eng-spa-tagger`, `spa-morph`, …) are skipped.
  public static func installed(in folder: String = modesFolder) -> [ApertiumPair] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.sorted().compactMap { name in
      guard name.hasSuffix(".mode") else { return nil }
      let mode = String(name.dropLast(5))
      let parts = mode.split(separator: "-", omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
      return ApertiumPair(
        mode: mode, modeFile: folder + "/" + name, source: ApertiumLanguage.tag(forCode: String(parts[0])),
        target: ApertiumLanguage.tag(forCode: String(parts[1])))
    }
  }
}
