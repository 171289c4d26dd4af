import CAtspi
import Presentation

/// The selected text of the focused text field of another application, as
/// that application tells it over AT-SPI: the text to translate, where it
/// is on the screen, and (when the field is editable) the place to put the
/// translation without the clipboard.
///
/// The application that owns the field reports all of it, so the text and
/// the field it came from are known for certain, on X11 and Wayland alike.
/// Calls are D-Bus round trips to that application (`AccessibilityBus`
/// bounds each one); they run on the thread that found the field.
package final class AccessibleText {
  /// What kind of field it is, for the way a replacement goes in.
  package enum Kind: Equatable, Sendable {
    /// Editable through AT-SPI's `EditableText`: replaced in place.
    case editable
    /// A terminal (by its accessible role): the translation is pasted, never typed over.
    case terminal
    /// Text that cannot be changed (a label, a web page): translate only.
    case readOnly
  }

  /// The application's name (`mousepad`, `FeatherPad`), for messages.
  package let application: String
  /// The application's process id, as it reports it (0 when unknown).
  package let processID: Int32
  /// The toolkit that draws the field (`GTK`, `Qt`, `gtk`…), as it reports it.
  package let toolkit: String
  package let kind: Kind
  /// The selection, in characters (Unicode scalars) of the field's text.
  package let selection: Range<Int>
  /// The selected text.
  package let text: String

  /// The accessible object of the field, owned (one reference).
  private let object: UnsafeMutablePointer<AtspiAccessible>

  init(
    object: UnsafeMutablePointer<AtspiAccessible>, application: String, processID: Int32, toolkit: String,
    kind: Kind, selection: Range<Int>, text: String
  ) {
    self.object = object
    self.application = application
    self.processID = processID
    self.toolkit = toolkit
    self.kind = kind
    self.selection = selection
    self.text = text
  }

  deinit { g_object_unref(UnsafeMutableRawPointer(object)) }

  /// The object as its `Text` and `EditableText` interfaces (one GObject).
  private var textInterface: UnsafeMutablePointer<AtspiText> {
    UnsafeMutableRawPointer(object).assumingMemoryBound(to: AtspiText.self)
  }
  private var editableInterface: UnsafeMutablePointer<AtspiEditableText> {
    UnsafeMutableRawPointer(object).assumingMemoryBound(to: AtspiEditableText.self)
  }

  /// The selection's bounds on the screen: the union of its first and last
  /// characters (every selected line lies between them). Applications that
  /// give only window coordinates (GTK 4) are placed with `windowOrigin`,
  /// the top-left corner of their window on the screen; nil when neither works.
  package func extents(windowOrigin: ScreenPoint?) -> ScreenRect? {
    guard !selection.isEmpty else { return nil }
    if let rect = characterUnion(ATSPI_COORD_TYPE_SCREEN), rect.width > 0 || rect.height > 0 { return rect }
    guard let windowOrigin, var rect = characterUnion(ATSPI_COORD_TYPE_WINDOW) else { return nil }
    rect.x += windowOrigin.x
    rect.y += windowOrigin.y
    return rect
  }

  private func characterUnion(_ coordinates: AtspiCoordType) -> ScreenRect? {
    guard let first = characterExtents(selection.lowerBound, coordinates),
      let last = characterExtents(selection.upperBound - 1, coordinates)
    else { return nil }
    let x = min(first.x, last.x)
    let y = min(first.y, last.y)
    return ScreenRect(
      x: x, y: y, width: max(first.maxX, last.maxX) - x, height: max(first.maxY, last.maxY) - y)
  }

  private func characterExtents(_ offset: Int, _ coordinates: AtspiCoordType) -> ScreenRect? {
    var error: UnsafeMutablePointer<GError>?
    let rect = atspi_text_get_character_extents(textInterface, Int32(offset), coordinates, &error)
    defer { if let rect { g_free(rect) } }
    guard AccessibilityBus.succeeded(&error), let rect else { return nil }
    return ScreenRect(
      x: Int(rect.pointee.x), y: Int(rect.pointee.y), width: Int(rect.pointee.width), height: Int(rect.pointee.height))
  }

  /// The field's text between `range`'s bounds now; nil when it cannot be read.
  func currentText(_ range: Range<Int>) -> String? {
    var error: UnsafeMutablePointer<GError>?
    let text = atspi_text_get_text(textInterface, Int32(range.lowerBound), Int32(range.upperBound), &error)
    defer { if let text { g_free(text) } }
    guard AccessibilityBus.succeeded(&error), let text else { return nil }
    return String(cString: text)
  }

  /// Replaces the selected text with `translation` in place (AT-SPI's
  /// `EditableText`), then selects the translation, as iOS does.
  ///
  /// Nothing is changed unless the field still holds the text that was
  /// translated at the same place: the person may have typed meanwhile.
  /// The change is read back; if the field holds anything but the
  /// translation there, the original text is put back and it throws.
  package func replaceSelection(with translation: String) throws(DesktopPopoverError) {
    guard kind == .editable else { throw .notReplaceable(application: application) }
    guard currentText(selection) == text else { throw .selectionChanged(application: application) }
    let start = selection.lowerBound
    let inserted = start..<(start + translation.unicodeScalars.count)
    guard delete(selection) else { throw .replaceFailed(application: application, step: "delete the selected text") }
    guard insert(translation, at: start), currentText(inserted) == translation else {
      // Whatever went in is taken out, and the text put back as it was.
      if let now = currentText(inserted), now != text, now.unicodeScalars.count <= translation.unicodeScalars.count {
        _ = delete(start..<(start + now.unicodeScalars.count))
      }
      _ = insert(text, at: start)
      throw .replaceFailed(application: application, step: "insert the translation")
    }
    select(inserted)
  }

  private func delete(_ range: Range<Int>) -> Bool {
    var error: UnsafeMutablePointer<GError>?
    let done = atspi_editable_text_delete_text(
      editableInterface, Int32(range.lowerBound), Int32(range.upperBound), &error)
    return AccessibilityBus.succeeded(&error) && done != 0
  }

  /// Inserts `text` at `offset`. AT-SPI's length argument is read two
  /// ways: GTK takes it in bytes of UTF-8, Qt in UTF-16 code units (and pads
  /// or cuts the text to it), so it is given as the toolkit reads it.
  private func insert(_ text: String, at offset: Int) -> Bool {
    let length = toolkit.lowercased().hasPrefix("qt") ? text.utf16.count : text.utf8.count
    var error: UnsafeMutablePointer<GError>?
    let done = atspi_editable_text_insert_text(editableInterface, Int32(offset), text, Int32(length), &error)
    return AccessibilityBus.succeeded(&error) && done != 0
  }

  /// Selects `range` (some toolkits only add a selection where none is left).
  private func select(_ range: Range<Int>) {
    var error: UnsafeMutablePointer<GError>?
    let set = atspi_text_set_selection(textInterface, 0, Int32(range.lowerBound), Int32(range.upperBound), &error)
    guard !AccessibilityBus.succeeded(&error) || set == 0 else { return }
    _ = atspi_text_add_selection(textInterface, Int32(range.lowerBound), Int32(range.upperBound), &error)
    _ = AccessibilityBus.succeeded(&error)
  }
}
