import Presentation
import Testing

/// What crosses from the popover to its clipboard holder: every format, whole, and nothing malformed.
@Suite struct ClipboardContentsTests {
  static let png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x0a, 0xff]

  @Test(arguments: [
    ClipboardContents(formats: []),
    ClipboardContents(text: "the cat\non the table\n"),
    ClipboardContents(text: ""),
    ClipboardContents(formats: [
      .init(mimeType: "image/png", bytes: png),
      .init(mimeType: "text/html", bytes: Array("<b>cat</b>\n".utf8)),
      .init(mimeType: "text/uri-list", bytes: Array("file:///tmp/a%20b\r\n".utf8)),
      .init(mimeType: ClipboardContents.textType, bytes: Array("gato\u{0}\n".utf8)),
    ]),
  ])
  func comesBackWhole(contents: ClipboardContents) {
    #expect(ClipboardContents(decoding: contents.encoded) == contents)
  }

  @Test(arguments: [
    "text/plain 5\nabc",  // shorter than it says
    "text/plain\nabc",  // no count
    "text/plain -1\n",
    "text/plain x\n",
    " 3\nabc",  // no type
    "text/plain 3 4\nabc",
    "text plain 3\nabc",
    "text/\u{7}plain 3\nabc",
    String(repeating: "a", count: 400) + " 0\n",
    "text/plain 99999999999999999999999\n",
  ])
  func refusesWhatIsMalformed(encoded: String) {
    #expect(ClipboardContents(decoding: Array(encoded.utf8)) == nil)
  }

  @Test func refusesTooManyFormats() {
    let many = ClipboardContents(
      formats: (0...ClipboardContents.formatLimit).map { .init(mimeType: "x/\($0)", bytes: [1]) })
    #expect(ClipboardContents(decoding: many.encoded) == nil)
  }

  @Test func readsItsText() {
    #expect(ClipboardContents(text: "gato").text == "gato")
    #expect(ClipboardContents(formats: [.init(mimeType: "image/png", bytes: Self.png)]).text == nil)
  }
}
