@_exported import Dispatch
// Provider authors write `import TranslationUIProvider` in place of `import
// SwiftUI` and get what that import gives an iOS file: all of Foundation
// (AttributedString, Bundle, FileManager, UserDefaults, …) with
// FoundationNetworking (URLSession), Dispatch (DispatchQueue) and Observation
// (`@Observable`). The whole of Foundation, not FoundationEssentials alone, so
// that a file that also imports Foundation sees one declaration of each name.
@_exported import Foundation
@_exported import FoundationNetworking
@_exported import Observation
