// TranslateFile: translates each line of stdin with the user's default
// translation provider, through the Translation library.
//
//   TranslateFile <source> [<target>] < text.txt
//
// Without a target, the translation goes into your preferred language that
// is not the source (LANGUAGE, LC_ALL, LC_MESSAGES, LANG).
import Foundation
import Translation

let arguments = Array(CommandLine.arguments.dropFirst())
guard (1...2).contains(arguments.count) else {
  FileHandle.standardError.write(Data("usage: TranslateFile <source> [<target>] < text.txt\n".utf8))
  exit(64)
}
let source = Locale.Language(identifier: arguments[0])
let target = arguments.count == 2 ? Locale.Language(identifier: arguments[1]) : nil

// Ask before translating: is the pair there at all?
let availability = LanguageAvailability()
switch await availability.status(from: source, to: target) {
case .installed:
  break
case .supported:
  FileHandle.standardError.write(Data("TranslateFile: the provider supports this pair, but it is not installed\n".utf8))
  exit(69)
case .unsupported:
  // Also the answer when there is no provider or it cannot start, since
  // status(from:to:) cannot throw; then there are no languages at all, and
  // a session's error says what is missing.
  var reason = "the provider does not translate this pair"
  if await availability.supportedLanguages.isEmpty {
    do {
      try await TranslationSession(installedSource: source, target: target).prepareTranslation()
    } catch let error as TranslationError {
      reason = error.failureReason ?? "\(error)"
    }
  }
  FileHandle.standardError.write(Data("TranslateFile: \(reason)\n".utf8))
  exit(69)
}

var requests: [TranslationSession.Request] = []
while let line = readLine() {
  requests.append(TranslationSession.Request(sourceText: line, clientIdentifier: String(requests.count + 1)))
}

// An app with a terminal user interface would show the default provider's
// popover for one text instead, with translationPresentation(text:...), the
// counterpart of SwiftUI's (Examples/ReplaceSelection).

let session = TranslationSession(installedSource: source, target: target)
do {
  for try await response in session.translate(batch: requests) {
    print(response.targetText)
  }
} catch let error as TranslationError {
  FileHandle.standardError.write(Data("TranslateFile: \(error)\n".utf8))
  exit(1)
}
