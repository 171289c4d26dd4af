// Apple's Translation module re-exports Foundation: a file that imports only
// Translation may use `Locale.Language`, `AttributedString` and the rest, as
// app code written for Apple's platforms does.
@_exported import Foundation
