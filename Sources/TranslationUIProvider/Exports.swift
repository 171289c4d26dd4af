// Provider authors write `import TranslationUIProvider` and get what Apple's
// SwiftUI import gives them on iOS: Foundation's value types, AttributedString
// first among them.
@_exported import FoundationEssentials
// …and Observation, for `@Observable` models, as SwiftUI re-exports it.
@_exported import Observation
