import RunnerProtocol

/// The host's folders under the XDG base directories.
package struct XDGFolders: Sendable {
  /// `$XDG_DATA_HOME/translation-host` (default `~/.local/share/translation-host`).
  package var data: String
  /// `$XDG_CONFIG_HOME/translation-host` (default `~/.config/translation-host`).
  package var config: String
  /// `$XDG_CACHE_HOME/translation-host` (default `~/.cache/translation-host`).
  package var cache: String

  package init(environment: [String: String]) {
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
    func folder(_ variable: String, _ fallback: String) -> String {
      // The XDG specification ignores relative paths.
      let value = environment[variable].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/" + fallback
      return value + "/translation-host"
    }
    data = folder("XDG_DATA_HOME", ".local/share")
    config = folder("XDG_CONFIG_HOME", ".config")
    cache = folder("XDG_CACHE_HOME", ".cache")
  }

  /// The declared folders found clean (`CleanFolders`), in the cache folder.
  package var cleanFolders: CleanFolders { CleanFolders(file: cache + "/read-only-folders-v1") }
}
