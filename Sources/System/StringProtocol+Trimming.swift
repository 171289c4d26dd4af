extension StringProtocol {
  /// The text without leading and trailing whitespace.
  package func trimmingWhitespace() -> String {
    var text = Substring(self)
    while text.first?.isWhitespace == true { text.removeFirst() }
    while text.last?.isWhitespace == true { text.removeLast() }
    return String(text)
  }
}
