import CTranslationProvider
import Testing

@testable import TranslationUIProvider

/// Apple documents `finish(translation:)`: it completes the scene once; nil
/// means no replacement; a translation is ignored when replacement is not allowed.
@Suite struct ContextTests {
  @Test func readsInputAndReplacementFromTheHost() {
    let host = RecordingContext("Hallo", allowsReplacement: true)
    let context = HostContext(host.pointer)
    #expect(context.inputText == AttributedString("Hallo"))
    #expect(context.allowsReplacement)
    let empty = RecordingContext(nil, allowsReplacement: false)
    withExtendedLifetime(empty) { #expect(HostContext(empty.pointer).inputText == nil) }
  }

  @Test func finishDeliversTheTranslation() {
    let host = RecordingContext("Hallo", allowsReplacement: true)
    HostContext(host.pointer).finish(translation: AttributedString("ollaH"))
    #expect(host.recorded == [.finish("ollaH")])
  }

  @Test func seedSpellingIsTheSameCall() {
    let host = RecordingContext("Hallo", allowsReplacement: true)
    HostContext(host.pointer).finish(replacingWithTranslation: AttributedString("ollaH"))
    #expect(host.recorded == [.finish("ollaH")])
  }

  @Test func finishWithNilDismissesWithoutReplacement() {
    let host = RecordingContext("Hallo", allowsReplacement: true)
    HostContext(host.pointer).finish(translation: nil)
    #expect(host.recorded == [.finish(nil)])
  }

  @Test func translationIsIgnoredWhenReplacementIsNotAllowed() {
    let host = RecordingContext("Hallo", allowsReplacement: false)
    HostContext(host.pointer).finish(translation: AttributedString("ollaH"))
    #expect(host.recorded == [.finish(nil)])
  }

  @Test func onlyTheFirstFinishCounts() {
    let host = RecordingContext("Hallo", allowsReplacement: true)
    let context = HostContext(host.pointer)
    context.finish(translation: AttributedString("first"))
    context.finish(translation: AttributedString("second"))
    context.finish(translation: nil)
    context.expandSheet()
    #expect(host.recorded == [.finish("first")])
  }

  @Test func nothingReachesTheHostAfterTheSceneIsDestroyed() {
    let host = RecordingContext("Hallo", allowsReplacement: true)
    let context = HostContext(host.pointer)
    context.close()
    context.finish(translation: AttributedString("late"))
    context.expandSheet()
    context.requestRender()
    #expect(host.recorded.isEmpty)
  }

  @Test func expandSheetAndRenderRequestsPassThroughWhileOpen() {
    let host = RecordingContext("Hallo", allowsReplacement: true)
    let context = HostContext(host.pointer)
    context.expandSheet()
    context.requestRender()
    #expect(host.recorded == [.expandSheet, .requestRender])
  }
}
