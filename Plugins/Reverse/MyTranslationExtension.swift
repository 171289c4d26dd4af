import TranslationUIProvider

@main
class MyTranslationExtension: TranslationUIProviderExtension {

    var body: some TranslationUIProviderExtensionScene {
        TranslationUIProviderSelectedTextScene { context in
            MyTranslationView(context: context)
        }
    }
}

struct MyTranslationView: View {
    @State var context: TranslationUIProviderContext
    @State var translated: String = ""

    init(context c: TranslationUIProviderContext) {
        context = c
    }

    var body: some View {
        VStack(alignment: .leading) {
            Text(context.inputText ?? "")
            Text(translated)
            Button(action: translate) {
                Label("Translate", systemImage: "globe")
            }
            Button(action: replaceText) {
                Text("Replace With Translation")
            }
            .disabled(!context.allowsReplacement)
        }
    }

    // Perform the translation, leaving the UI visible.
    private func translate() {
        if let toTranslate = context.inputText, !toTranslate.characters.isEmpty {
            // Call your own, custom translation API.
            translated = String(toTranslate.characters.reversed())
        }
    }

    // Send the translation result back to the source text field, and exit.
    private func replaceText() {
        context.finish(replacingWithTranslation: AttributedString(translated))
    }
}
