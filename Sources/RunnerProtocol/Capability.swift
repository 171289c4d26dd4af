/// A capability a provider implements, by its id in the C ABI
/// (`TP_CAPABILITY_*` in `translation_provider.h`), so that the host's
/// front ends ask for one without the C header.
package struct Capability: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  package let rawValue: String

  package init(rawValue: String) { self.rawValue = rawValue }

  /// The selected-text scene: the popover (`TP_CAPABILITY_SELECTED_TEXT_SCENE`).
  package static let selectedTextScene = Capability(rawValue: "tp.scene.selected-text/1")
  /// Headless batch translation and the language list (`TP_CAPABILITY_TRANSLATE`).
  package static let translate = Capability(rawValue: "tp.translate/1")
  /// Headless translation of an open batch, texts coming while others are in
  /// flight (`TP_CAPABILITY_TRANSLATE_STREAM`, ABI 2.1): the service may send
  /// such a runner its next batch before the last is answered.
  package static let translateStream = Capability(rawValue: "tp.translate.stream/1")
  /// An id no provider implements: a runner asks for it, and a provider that
  /// answers with a table reports it among its capabilities, for `validate`
  /// to name (`get_capability` must return NULL for ids it does not know).
  package static let unknownProbe = Capability(rawValue: "tp.translation-host.unknown-capability-probe/1")
  /// Every capability this host knows, in the order it asks providers for them.
  package static let known = [selectedTextScene, translate, translateStream]

  package var description: String { rawValue }
}
