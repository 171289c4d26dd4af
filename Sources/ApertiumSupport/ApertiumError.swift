/// Why the Apertium engine could not translate.
public enum ApertiumError: Error, Equatable, CustomStringConvertible {
  /// No installed mode translates this pair.
  case noPair(source: String, target: String)
  /// The pipeline could not be started.
  case startFailed(mode: String, reason: String)
  /// The pipeline ended or stopped answering.
  case pipelineFailed(mode: String, reason: String)

  public var description: String {
    switch self {
    case .noPair(let source, let target):
      "no Apertium mode translates '\(source)' to '\(target)'; install the pair's Debian package (apertium-<src>-<tgt>)"
    case .startFailed(let mode, let reason): "cannot start the Apertium pipeline for \(mode): \(reason)"
    case .pipelineFailed(let mode, let reason): "the Apertium pipeline for \(mode) failed: \(reason)"
    }
  }
}
