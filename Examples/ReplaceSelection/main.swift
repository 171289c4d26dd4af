// ReplaceSelection: shows the default translation provider's popover for a
// text on this terminal, as an editor would for its selection, and prints
// the replacement when the person chooses "Replace With Translation".
//
//   ReplaceSelection [--view-only] [<text>]     (without <text>: stdin)
//
// With --view-only there is no replacement action: the provider is told
// replacement is not allowed, so its Replace button is disabled or not
// shown, and nothing is replaced. Exit status: 0 replaced (or viewed),
// 1 dismissed, 130 interrupted (Ctrl-C in the popover), 69 no provider or
// terminal.
import Foundation
import Translation

var arguments = Array(CommandLine.arguments.dropFirst())
let viewOnly = arguments.first == "--view-only"
if viewOnly { arguments.removeFirst() }
let input = FileHandle.standardInput
let text = arguments.isEmpty ? String(decoding: input.readDataToEndOfFile(), as: UTF8.self) : arguments.joined(separator: " ")

var replaced = false
do {
  if viewOnly {
    try await translationPresentation(text: text)
  } else {
    // Called only with a complete replacement, after the terminal is restored.
    try await translationPresentation(text: text, attachmentAnchor: .cell(row: 1, column: 1), arrowEdge: .top) { replacement in
      print(replacement)
      replaced = true
    }
  }
} catch is CancellationError {
  FileHandle.standardError.write(Data("ReplaceSelection: interrupted\n".utf8))
  exit(130)
} catch let error as TranslationError {
  FileHandle.standardError.write(Data("ReplaceSelection: \(error.failureReason ?? "\(error)")\n".utf8))
  exit(69)
}
exit(replaced || viewOnly ? 0 : 1)
