// Apple's Translation module re-exports Foundation: a file that imports only
// Translation may use `Locale.Language`, `AttributedString` and the rest, as
// app code written for Apple's platforms does.
@_exported import Foundation
// Apps written for Apple's platforms use `@Observable` models with
// Translation (Apple's own sample imports only Foundation and Translation,
// where SwiftUI brings Observation in): the toolchain's Observation module
// is re-exported for them.
@_exported import Observation
